// The default model (USE-lite) reads English only and maps every Chinese, Japanese, Korean or Thai query near one
// point: fused with it, each such query put the same unrelated section first. With that model such queries run by
// keyword (character pairs) and the response says why; English queries stay hybrid.
import t from 'tap';
import { makeVault, startDaemon, testConfig } from '../helpers/daemon.js';

const files = {
  'zh/git-remote.md': '# 远程仓库\n\n使用 git remote 命令列出你的远程仓库，添加新的远程地址，或者修改已有远程地址的名称。\n',
  'zh/tea.md': '# 茶\n\n我最喜欢的茶是西湖龙井，泡茶的水温大约八十度，第一泡只需要三十秒。\n',
  'ko/garden.md': '# 텃밭\n\n올해 봄에는 베란다 텃밭에 상추와 방울토마토를 심었고, 매일 아침 물을 준다.\n',
  'ja/meeting.md': '# 会議\n\n来週の定例会議では、新しいデザインの資料を共有して、予算の見直しについて話し合う予定です。\n',
  'en/kiln.md': '# Kiln\n\nThe pottery kiln reaches cone six after eleven hours of firing.\n',
};

t.test('Chinese, Japanese and Korean queries find their note by keyword in hybrid mode', async (t) => {
  const v = makeVault(files);
  t.teardown(() => v.cleanup());
  const d = await startDaemon(testConfig(v.dir));
  t.teardown(() => d.stop());
  await d.daemon.whenCaughtUp();
  const queries: Array<[string, string]> = [
    ['仓库', 'zh/git-remote.md'],
    ['龙井茶', 'zh/tea.md'],
    ['상추', 'ko/garden.md'],
    ['予算', 'ja/meeting.md'],
  ];
  for (const [query, want] of queries) {
    const r = await d.search(query, { mode: 'hybrid', k: 3 });
    t.equal(r.results[0]?.path, want, `${query} → ${want}`);
    t.equal(r.mode, 'bm25', 'searched by keyword');
    t.match(r.degraded, /^model_cannot_read_script: /, 'and the response says why');
  }
  const en = await d.search('how hot does the pottery oven get', { mode: 'hybrid', k: 3 });
  t.equal(en.mode, 'hybrid', 'an English question stays hybrid');
  t.equal(en.degraded, null);
  t.equal(en.results[0]?.path, 'en/kiln.md');
});
