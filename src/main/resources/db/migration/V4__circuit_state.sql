-- Registration checks a circuit's proving key off the request thread (docs/API.md "Circuits"): the circuit's row
-- and files are published first, REGISTERING, and become READY or FAILED (with the reason) when the check ends.
-- Circuits registered before were checked in full before their row was inserted.
alter table circuits add column state varchar(16) default 'READY' not null;
alter table circuits add column failure varchar(2000);
