// Accent- and case-folding for search and duplicate checks (issue 57): the same fold as the
// database's medledger_fold() (migration 0035), which the tests compare letter by letter. Lower
// case, the Latin letters with diacritics (U+00C0-U+024F) to their base letter, ß/æ/œ to two.
const FROM =
  'ÀÁÂÃÄÅÇÈÉÊËÌÍÎÏÑÒÓÔÕÖÙÚÛÜÝàáâãäåçèéêëìíîïñòóôõöùúûüýÿĀāĂăĄąĆćĈĉĊċČčĎďĒēĔĕĖėĘęĚěĜĝĞğĠġĢģĤĥĨĩĪīĬĭĮįİĴĵĶķĹĺĻļĽľŃńŅņŇňŌōŎŏŐőŔŕŖŗŘřŚśŜŝŞşŠšŢţŤťŨũŪūŬŭŮůŰűŲųŴŵŶŷŸŹźŻżŽžƠơƯưǍǎǏǐǑǒǓǔǕǖǗǘǙǚǛǜǞǟǠǡǦǧǨǩǪǫǬǭǰǴǵǸǹǺǻȀȁȂȃȄȅȆȇȈȉȊȋȌȍȎȏȐȑȒȓȔȕȖȗȘșȚțȞȟȦȧȨȩȪȫȬȭȮȯȰȱȲȳĐđĦħŁłØøŦŧıĿŀ';
const TO =
  'aaaaaaceeeeiiiinooooouuuuyaaaaaaceeeeiiiinooooouuuuyyaaaaaaccccccccddeeeeeeeeeegggggggghhiiiiiiiiijjkkllllllnnnnnnoooooorrrrrrssssssssttttuuuuuuuuuuuuwwyyyzzzzzzoouuaaiioouuuuuuuuuuaaaaggkkoooojggnnaaaaaaeeeeiiiioooorrrruuuusstthhaaeeooooooooyyddhhlloottill';
const LIGATURES: Record<string, string> = { ß: 'ss', ẞ: 'ss', æ: 'ae', Æ: 'ae', œ: 'oe', Œ: 'oe' };
const MAP = new Map([...FROM].map((c, i) => [c, TO[i]]));

/** The folded text: "María García" -> "maria garcia". */
export function foldForSearch(value: string): string {
  let out = '';
  for (const c of value) {
    const lower = c.length === 1 && c < '\u0080' ? c.toLowerCase() : c;
    out += MAP.get(lower) ?? LIGATURES[lower] ?? lower;
  }
  return out;
}

/** The letters the fold maps, for the test comparing it with the database's. */
export const FOLDED_LETTERS = [...FROM, ...Object.keys(LIGATURES)];
