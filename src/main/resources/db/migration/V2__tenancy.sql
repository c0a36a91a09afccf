-- Tenancy (docs/API.md "Tenancy"): jobs belong to the API key that submitted them, circuits to the keys that
-- registered them. Rows from before belong to '*', every key, as every key could see them until now.

alter table jobs add column principal varchar(200);
update jobs set principal = '*';
alter table jobs alter column principal set not null;
-- A SHA-256 of the submission, so that a replayed requestId can be told from a reused one (409).
alter table jobs add column request_fingerprint varchar(64);

-- requestId is unique per key, not across keys: one client's ids cannot block or reveal another's.
alter table jobs drop constraint jobs_request_id_unique;
alter table jobs add constraint jobs_principal_request_id_unique unique (principal, request_id);
create index jobs_principal_idx on jobs (principal, created_at);

-- Who may use a circuit: the key that registered it and every key that registered the same zkey since.
create table circuit_access (
    circuit_id varchar(64)  not null,
    principal  varchar(200) not null,
    granted_at timestamp with time zone not null,
    primary key (circuit_id, principal)
);
insert into circuit_access (circuit_id, principal, granted_at) select id, '*', created_at from circuits;
