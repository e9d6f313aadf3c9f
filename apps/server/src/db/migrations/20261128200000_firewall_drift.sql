-- Firewall drift (issue 20): Palisade's nftables table as the agent last found it loaded,
-- against what it applied, and when it last re-applied it after a change outside Palisade.
ALTER TABLE devices ADD COLUMN firewall_drift jsonb;
