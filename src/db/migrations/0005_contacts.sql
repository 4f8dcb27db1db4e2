-- Contact books and their contacts. Every contact carries its team id so that each query can be
-- tenant-first; the composite foreign key keeps it equal to its book's team.
CREATE TABLE contact_books (
  id                     text PRIMARY KEY,
  team_id                integer NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  name                   text NOT NULL,
  emoji                  text NOT NULL,
  -- map string -> string
  properties             jsonb NOT NULL DEFAULT '{}',
  -- the personalisation variables contacts of this book may carry (string[])
  variables              jsonb NOT NULL DEFAULT '[]',
  double_opt_in_enabled  boolean NOT NULL DEFAULT false,
  double_opt_in_from     text,
  double_opt_in_subject  text,
  double_opt_in_content  text,
  created_at             timestamptz NOT NULL,
  updated_at             timestamptz NOT NULL,
  UNIQUE (team_id, id)
);
CREATE INDEX contact_books_team_created ON contact_books (team_id, created_at, id);

CREATE TABLE contacts (
  id                      text PRIMARY KEY,
  team_id                 integer NOT NULL,
  contact_book_id         text NOT NULL,
  -- trimmed and lower-cased
  email                   text NOT NULL,
  first_name              text,
  last_name               text,
  subscribed              boolean NOT NULL DEFAULT true,
  -- map string -> string
  properties              jsonb NOT NULL DEFAULT '{}',
  -- Double opt-in: null while the contact of a double opt-in book has not confirmed. Contacts of
  -- other books are confirmed when created.
  confirmed_at            timestamptz,
  -- The confirmation email is a job on the contact row: due at this time, leased, attempts counted.
  confirmation_due_at     timestamptz,
  confirmation_lease_until timestamptz,
  confirmation_attempts   integer NOT NULL DEFAULT 0,
  confirmation_sent_at    timestamptz,
  unsubscribed_at         timestamptz,
  created_at              timestamptz NOT NULL,
  updated_at              timestamptz NOT NULL,
  FOREIGN KEY (team_id, contact_book_id) REFERENCES contact_books (team_id, id) ON DELETE CASCADE,
  UNIQUE (contact_book_id, email)
);
-- Lists and segment pages: a book's contacts in id (creation) order.
CREATE INDEX contacts_book_id ON contacts (team_id, contact_book_id, id);
-- Unsubscribe and email activity look contacts up by address across a team's books.
CREATE INDEX contacts_team_email ON contacts (team_id, email);
CREATE INDEX contacts_confirmation_due ON contacts (confirmation_due_at) WHERE confirmation_due_at IS NOT NULL;

-- Addresses that unsubscribed from a team's MARKETING mail (List-Unsubscribe one-click or the
-- unsubscribe page). A MARKETING email is not sent to them; TRANSACTIONAL mail still is.
CREATE TABLE unsubscribes (
  team_id    integer NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  -- lower-cased address
  email      text NOT NULL,
  -- the email whose link was used, when it was an email's link
  email_id   text,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (team_id, email)
);
