-- Whether Palisade has ever sent a device a firewall (nftables script) or routes. A device that
-- had them and has them no more gets scripts that remove them (table inet palisade, proto 250
-- routes); a device that never had them is left alone. Set once, never cleared.

ALTER TABLE devices ADD COLUMN nftables_managed boolean NOT NULL DEFAULT false;
ALTER TABLE devices ADD COLUMN routes_managed boolean NOT NULL DEFAULT false;

-- Devices rendered a script before this migration: a ruleset, or NAT (rendered in L3 mode).
UPDATE devices SET nftables_managed = true
 WHERE firewall_id IS NOT NULL
    OR jsonb_array_length(COALESCE(network -> 'source_nat', '[]')) > 0
    OR jsonb_array_length(COALESCE(network -> 'port_forwards', '[]')) > 0;
UPDATE devices SET routes_managed = true
 WHERE COALESCE((network ->> 'l3_mode')::boolean, false)
   AND jsonb_array_length(COALESCE(network -> 'routes', '[]')) > 0;
