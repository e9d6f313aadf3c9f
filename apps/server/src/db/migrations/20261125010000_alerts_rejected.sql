-- Alert events a device sent that the server did not store (not an alert object, no valid
-- timestamp, …): the rest of their batch is stored, and the console shows this count.
ALTER TABLE devices ADD COLUMN alerts_rejected bigint NOT NULL DEFAULT 0;
