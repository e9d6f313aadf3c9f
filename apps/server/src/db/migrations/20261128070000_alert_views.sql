-- Saved views of the alerts screen (issue 19): a named set of the list's filters, kept by one
-- user and, when shared, listed to everyone in the organization. Only the owner edits a view;
-- a deleted user's views go with them.
CREATE TABLE alert_views (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  org_id integer NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name text NOT NULL,
  -- The filters as the contract's AlertViewFilters (a relative range stays relative).
  filters jsonb NOT NULL DEFAULT '{}'::jsonb,
  shared boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- One name per owner (case-insensitive); it also serves "my views".
CREATE UNIQUE INDEX alert_views_owner_name ON alert_views (user_id, lower(name));
-- The organization's shared views.
CREATE INDEX alert_views_org_shared ON alert_views (org_id) WHERE shared;
