-- The submit call's split (IntakeTimings as JSON: body received, checked, durable, rows), written with the job's
-- rows; the run's own timings (jobs.timings) are written when it finishes and leave it alone.
alter table jobs add column intake varchar(200);
