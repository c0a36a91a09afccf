-- Proofline's durable state. The same migration runs on the embedded H2 file database (MODE=PostgreSQL)
-- and on PostgreSQL, so it uses only types both accept.

create table circuits (
    id             varchar(64)  primary key,   -- the zkey's SHA-256, hex
    name           varchar(200) not null,
    curve          varchar(16)  not null,
    constraints    bigint       not null,
    variables      bigint       not null,
    public_signals integer      not null,
    domain_size    bigint       not null,
    zkey_bytes     bigint       not null,
    has_wasm       boolean      not null,
    has_r1cs       boolean      not null,
    created_at     timestamp with time zone not null
);

create table jobs (
    id               varchar(36)   primary key,
    circuit_id       varchar(64)   not null,
    request_id       varchar(200),
    status           varchar(16)   not null,   -- QUEUED | RUNNING | DONE | FAILED | CANCELLED
    priority         varchar(16)   not null,
    verify           boolean,
    partitions       integer       not null,
    owner            varchar(200),             -- the instance running it now, if any
    attempts         integer       not null,
    cancel_requested boolean       not null,
    error            varchar(4000),
    timings          varchar(2000),            -- JSON, set when finished
    created_at       timestamp with time zone not null,
    started_at       timestamp with time zone,
    finished_at      timestamp with time zone,
    constraint jobs_request_id_unique unique (request_id)
);
create index jobs_status_idx on jobs (status, created_at);

create table job_partitions (
    job_id   varchar(36)  not null,
    idx      integer      not null,
    format   varchar(16)  not null,            -- WTNS | INPUT_JSON; the bytes are a file under the data directory
    bytes    bigint       not null,
    stage    varchar(16)  not null,
    device   varchar(64),
    timings  varchar(2000),
    primary key (job_id, idx)
);

-- One row per partition proof, written once in the transaction that marks the job DONE.
create table proofs (
    job_id         varchar(36)   not null,
    idx            integer       not null,
    proof          varchar(4000) not null,
    public_signals varchar(1000000) not null,
    primary key (job_id, idx)
);

-- db-scheduler's table (its documented PostgreSQL schema, with varchar keys so that H2 accepts them too).
create table scheduled_tasks (
    task_name            varchar(100) not null,
    task_instance        varchar(100) not null,
    task_data            bytea,
    execution_time       timestamp with time zone not null,
    picked               boolean      not null,
    picked_by            varchar(200),
    last_success         timestamp with time zone,
    last_failure         timestamp with time zone,
    consecutive_failures integer,
    last_heartbeat       timestamp with time zone,
    version              bigint       not null,
    priority             smallint,
    primary key (task_name, task_instance)
);
create index execution_time_idx on scheduled_tasks (execution_time);
create index last_heartbeat_idx on scheduled_tasks (last_heartbeat);
create index priority_execution_time_idx on scheduled_tasks (priority desc, execution_time asc);
