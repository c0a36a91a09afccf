-- The stage after synthesis waits for any device, the CPU included: AWAITING_GPU is now AWAITING_DEVICE.
update job_partitions set stage = 'AWAITING_DEVICE' where stage = 'AWAITING_GPU';
