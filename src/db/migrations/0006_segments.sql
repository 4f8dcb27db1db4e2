-- Segments: saved, live filters over one contact book's contacts. Only the definition is stored;
-- who matches is computed at each use (src/segments/compile.ts), so a segment never goes stale.
CREATE TABLE segments (
  id              text PRIMARY KEY,
  team_id         integer NOT NULL,
  contact_book_id text NOT NULL,
  -- at most 80 characters, unique within the book (contract: Segment)
  name            text NOT NULL,
  description     text,
  -- {version, match, conditions}, as validated by src/segments/definition.ts
  definition      jsonb NOT NULL,
  created_at      timestamptz NOT NULL,
  updated_at      timestamptz NOT NULL,
  FOREIGN KEY (team_id, contact_book_id) REFERENCES contact_books (team_id, id) ON DELETE CASCADE,
  UNIQUE (contact_book_id, name)
);
-- A book's segments, oldest first.
CREATE INDEX segments_book_created ON segments (team_id, contact_book_id, created_at, id);
