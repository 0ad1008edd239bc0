// A baseline for bench/api-cpu.bench.ts: the least a Node process can spend to answer
// GET /api/auth/me. node:http and node-postgres, nothing else: the same session lookup as the app's
// (plugins/session.ts, one named statement joining sessions and users), the user as JSON, no
// framework, hooks, logging, security headers or schemas. Whatever the app spends beyond this per
// request is its own; what this spends is the cost of Node and the driver for one statement.
// Run by the bench in its own process: PORT and DATABASE_URL from the environment.
import crypto from 'node:crypto';
import http from 'node:http';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const lookup = {
  name: 'bare_session_lookup',
  rowMode: 'array' as const,
  text: `select u.id, u.email, u.role, u.first_name, u.last_name, u.hospital_name, u.last_login_at,
      u.two_factor_enabled, u.time_zone, s.sess, s.public_id, s.last_seen_at
    from sessions s inner join users u on u.id = s.user_id
    where s.sid = $1 and s.expire > $2::timestamptz and u.suspended_at is null limit 1`,
};

const server = http.createServer((request, response) => {
  const sid = /(?:^|;\s*)medledger_sid=([^;]+)/.exec(request.headers.cookie ?? '')?.[1];
  const answer = (status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
    response.end(JSON.stringify(body));
  };
  if (!sid) return answer(200, { user: null });
  const hashed = crypto.createHash('sha256').update(decodeURIComponent(sid)).digest('hex');
  pool.query<unknown[]>({ ...lookup, values: [hashed, new Date().toISOString()] }).then(
    ({ rows: [row] }) => {
      if (!row) return answer(200, { user: null });
      const [id, email, role, firstName, lastName, hospitalName, lastLoginAt, twoFactorEnabled, timeZone] =
        row;
      answer(200, {
        user: { id, email, role, firstName, lastName, hospitalName, lastLoginAt, twoFactorEnabled, timeZone },
      });
    },
    () => answer(500, { message: 'Something went wrong.' }),
  );
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('listening'));
process.on('SIGTERM', () => {
  server.close();
  void pool.end();
});
