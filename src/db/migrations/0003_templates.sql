-- Templates: reusable email bodies of a team. content is the editor document (JSON text, null for
-- a template created from HTML); html is the rendered, sanitised body that is sent.

CREATE TABLE templates (
  id           text PRIMARY KEY,
  team_id      integer NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  name         text NOT NULL,
  subject      text NOT NULL,
  type         text NOT NULL CHECK (type IN ('TRANSACTIONAL', 'MARKETING')),
  preview_text text,
  content      text,
  html         text,
  created_at   timestamptz NOT NULL,
  updated_at   timestamptz NOT NULL
);
-- The list: a team's templates, most recently changed first.
CREATE INDEX templates_team_updated ON templates (team_id, updated_at DESC, id DESC);
