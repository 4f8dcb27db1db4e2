// Recognising database errors the same way on pg and PGlite (both carry PostgreSQL's SQLSTATE).

/** A unique violation (23505), optionally of one constraint (by name, from the error or its message). */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const e = error as { code?: string; constraint?: string; message?: string };
  if (e?.code !== '23505') return false;
  return constraint === undefined || e.constraint === constraint || (e.message ?? '').includes(`"${constraint}"`);
}
