-- A rule's metadata, references and flowbits are read from its text when shown (a rule parses in
-- microseconds), not stored beside it: as jsonb they were a quarter of what an import wrote, and
-- building them a quarter of the embedded database's COPY time on a 30,000-rule import.
ALTER TABLE rules DROP COLUMN metadata, DROP COLUMN refs, DROP COLUMN flowbits;

-- One index for both lookups: the (gid, sid) key and the organization's rules by sid (sid
-- filters, sid sorts, alerts' signature ids). Each index is written for every imported rule.
DROP INDEX rules_org_sid;
DROP INDEX rules_key;
CREATE UNIQUE INDEX rules_key ON rules (org_id, sid, gid);
