-- Received mail's originals and attachments move to the blob store (src/inboxes/message-bytes.ts):
-- new rows leave `raw` and `content` null, so "original still kept" is now `raw_removed_at IS NULL`.
-- The retention chore's index follows (oldest kept originals first); older rows keep their bytea
-- bytes until the chore clears them.
DROP INDEX inbox_messages_raw_kept;
CREATE INDEX inbox_messages_original_kept ON inbox_messages (received_at) WHERE raw_removed_at IS NULL;
