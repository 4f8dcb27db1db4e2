-- Email events fan out to webhook calls in the statement that records them, in TypeScript
-- (src/webhooks/email-event-calls.ts, the payload beside its schema in event-catalogue.ts), no
-- longer by the trigger of migration 0013. herald_new_id and herald_iso stay: that code uses them.
DROP TRIGGER email_events_webhook_calls ON email_events;
DROP FUNCTION email_events_webhook_calls();
