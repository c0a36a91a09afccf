-- Fencing and retries (issue #19). jobs.attempts (V1) counts the runs an instance started and did not hand back
-- itself: a run that ends, or goes back to the queue by the instance's own hand, is not counted, so what stays
-- counted are runs whose instance died (a poison job that crashes the JVM; proofline.store.max-attempts).
-- lease_token: the token of the run that owns the job now; every write of a run checks it, so an instance that
-- lost the database for a while and was taken over cannot requeue or overwrite the new owner's work.
-- retries: runs that ended with a transient failure (proofline.retry.attempts).
alter table jobs add column lease_token varchar(36);
alter table jobs add column retries integer default 0 not null;
