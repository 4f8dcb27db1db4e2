-- A batch of received mail's originals and attachments goes to the blob store as ONE pack file
-- (src/inboxes/message-bytes.ts): a file per message cost more than everything else the intake does.
-- Each message names its pack and where its original starts; each attachment where it starts (the
-- lengths are raw_size and size). Null for rows stored before (their bytes are in the bytea columns).
ALTER TABLE inbox_messages ADD COLUMN blob_key text, ADD COLUMN raw_offset integer;
ALTER TABLE inbox_attachments ADD COLUMN blob_offset integer;
