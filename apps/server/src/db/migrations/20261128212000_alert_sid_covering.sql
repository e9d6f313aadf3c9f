-- The policy backtest (issue 20) replays a signature's alerts of a window: device, addresses and
-- the policy version each recorded, in time order. With these columns in the signature's index
-- that read comes from the index alone, instead of one heap page per alert (tens of thousands
-- for a noisy signature over 30 days). The key is unchanged, so the alert list's keyset pages
-- filtered by signature read it as before. Rebuilding it reads every stored alert once, at the
-- upgrade.
DROP INDEX device_alerts_org_sid_time;
CREATE INDEX device_alerts_org_sid_time ON device_alerts (org_id, sid, time DESC, id DESC)
  INCLUDE (device_id, gid, src_ip, dest_ip, policy_id, policy_version);
