-- Jobs on a timer (retention, …), shared by every replica: a replica runs a job only after
-- claiming it here, so with several replicas each run happens once, and a restart neither
-- repeats a run nor loses one. `due_at` is when the job may next be claimed; while a run is in
-- progress it is the end of that run's lease (a replica that died mid-run is taken over then).
CREATE TABLE scheduled_jobs (
  name text PRIMARY KEY,
  due_at timestamptz NOT NULL,
  runs bigint NOT NULL DEFAULT 0,
  started_at timestamptz,
  started_by text,
  finished_at timestamptz
);
