// The reads the opened address needs, started before the rest of the entry is evaluated (React's DOM
// takes most of that time, about 100 ms on a loaded machine): the page's chunk (routes.ts), the
// session (api/session.ts) and, on the email log, its first rows (pages/emails-query.ts). Each of
// these modules starts its read when evaluated (the last two take index.html's, already under way:
// api/inline-reads.ts); main.tsx imports this one first and renders once the chunk and session are here.
import './routes.ts';
import './api/session.ts';
import './pages/emails-query.ts';
