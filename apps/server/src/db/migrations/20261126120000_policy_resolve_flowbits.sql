-- A policy's render enables the rules that set the flowbits its enabled rules check, as
-- suricata-update does (issue 17). On by default, so that existing policies render as
-- suricata-update would render them; a policy may turn it off.
ALTER TABLE policies ADD COLUMN resolve_flowbits boolean NOT NULL DEFAULT true;
