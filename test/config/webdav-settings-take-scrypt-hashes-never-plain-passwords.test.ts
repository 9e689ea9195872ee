// `webdav:` settings: off by default; enabling it needs a user; a password must be an scrypt hash (a plain one is
// refused naming the field and the rule); a hash made by hashPassword verifies, and only for its password.
import t from 'tap';
import { configSchema } from '../../config/schema.js';
import { DavAuth, hashPassword } from '../../actors/gateway/webdav/auth.js';

const basic = (user: string, pw: string) => `Basic ${Buffer.from(`${user}:${pw}`).toString('base64')}`;

t.test('webdav settings', async (t) => {
  const d = configSchema.parse({ vault: 'v' });
  t.same(d.webdav, { enabled: false, users: [] }, 'off by default');
  const none = configSchema.safeParse({ vault: 'v', webdav: { enabled: true } });
  t.notOk(none.success);
  t.match(JSON.stringify(none.error?.issues), /webdav\.enabled needs at least one user/);
  const plain = configSchema.safeParse({ vault: 'v', webdav: { enabled: true, users: [{ name: 'alice', password_hash: 'hunter2' }] } });
  t.notOk(plain.success);
  t.match(JSON.stringify(plain.error?.issues), /must be an scrypt hash/);
  const hash = await hashPassword('correct horse', Buffer.from('a-salt-of-16-bytes'));
  const ok = configSchema.safeParse({ vault: 'v', webdav: { enabled: true, users: [{ name: 'alice', password_hash: hash }] } });
  t.ok(ok.success, 'an scrypt hash is accepted');
  const author = configSchema.safeParse({
    vault: 'v',
    webdav: {
      enabled: true,
      author: { name: 'Vault Owner', email: 'me@example.org' },
      users: [{ name: 'alice', email: 'a@example.org', password_hash: hash }],
    },
  });
  t.ok(author.success, 'a per-user email and a shared commit author are accepted');
  const badAuthor = configSchema.safeParse({ vault: 'v', webdav: { author: { name: 'x' } } });
  t.notOk(badAuthor.success, 'an author needs an email');

  const auth = new DavAuth([{ name: 'alice', password_hash: hash }]);
  t.equal(await auth.check(basic('alice', 'correct horse')), 'alice');
  t.equal(await auth.check(basic('alice', 'correct horse')), 'alice', 'again (remembered)');
  t.equal(await auth.check(basic('alice', 'wrong')), null);
  t.equal(await auth.check(basic('bob', 'correct horse')), null);
  t.equal(await auth.check(undefined), null);
  t.equal(await auth.check('Bearer x'), null);
});
