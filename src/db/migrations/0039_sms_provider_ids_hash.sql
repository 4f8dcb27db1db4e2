-- Reports find their message by the provider's id through a hash index instead of a B-tree primary
-- key (figures: bench/RESULTS.md, "SMS delivery").
--
-- The worker adds one provider id per message it hands over. The ids are random, so each insert
-- into the B-tree descended to a random leaf, comparing text at every level; a hash index puts the
-- entry straight into its bucket's page, a cheaper write with less WAL. A hash index covers one
-- column and enforces nothing: a lookup filters on the provider as well, and an id that a provider
-- gives twice no longer fails the whole batch's outcome.
ALTER TABLE sms_provider_ids DROP CONSTRAINT sms_provider_ids_pkey;
CREATE INDEX sms_provider_ids_lookup ON sms_provider_ids USING hash (provider_message_id);
