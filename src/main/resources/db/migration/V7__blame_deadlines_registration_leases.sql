-- Crash blame (issue #33): an instance's death is charged to the job that caused it, not to every job beside it.
-- suspect: a run of the job died beside other jobs, so it could be the culprit; it runs alone from then on.
-- isolated: the current run is alone on its instance (it took no other job meanwhile).
-- crashes: runs of the job that died while isolated: charged to it; past proofline.store.max-crashes it is FAILED.
-- dispatched: the current run has begun its work (the first partition's synthesis): written, and committed, before it
-- does, so that a run that dies before is known not to have caused the death (only dispatched runs are blamed).
alter table jobs add column suspect boolean default false not null;
alter table jobs add column dispatched boolean default false not null;
alter table jobs add column isolated boolean default false not null;
alter table jobs add column crashes integer default 0 not null;
-- A client's deadline (POST /api/v1/jobs "deadlineSeconds"), capped by proofline.pipeline.max-deadline: past it the
-- job is FAILED wherever it is.
alter table jobs add column deadline_at timestamp with time zone;
create index jobs_deadline_idx on jobs (status, deadline_at);
-- The lease of the instance checking a REGISTERING circuit's points: renewed by a heartbeat; another instance takes
-- the check over once it lapses (the checking instance died).
alter table circuits add column registering_owner varchar(200);
alter table circuits add column registering_heartbeat timestamp with time zone;
