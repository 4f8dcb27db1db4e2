-- Room on each page of sms_messages for every row's first status change (figures: bench/RESULTS.md,
-- "SMS delivery").
--
-- The worker writes a batch of neighbouring rows `sent` in one transaction, so a page needs room for
-- a new version of each of its rows before any old one can be pruned. At half a page the new
-- versions, larger by the provider's message id, did not all fit: about one in nine became a non-HOT
-- update, with an entry in every index. 45% leaves room for them (pages written from now on).
ALTER TABLE sms_messages SET (fillfactor = 45);
