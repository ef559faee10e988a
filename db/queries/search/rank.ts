// Text search over the approved catalogue, ranked by relevance. Every query here is bounded: candidates come
// from trigram indexes with a LIMIT per branch, counts stop at SEARCH_WINDOW, and scoring runs on at most
// 2 × SEARCH_WINDOW rows whatever the catalogue's size. How the matches are read is chosen per search from a
// fixed-size probe of the catalogue (plan.ts planSearch), not left to the planner's guess about how the words combine.
import { sql, type SQL } from "drizzle-orm";
import { listings } from "../../schema";
import { recentUsageScore } from "../sales";
import { rowsOf } from "../../rows";
import type { Db } from "../../types";
import { rawColumns, type RankedRow } from "./columns";
import { isShort, like, matchesName, matchesSearchText, startsAWord } from "./match";
import { searchPlanning, type SearchPlan } from "./plan";
import type { SearchTerms } from "./terms";

/** Most matches a text search ranks, pages through and counts; past it the total reads "1,000+". */
export const SEARCH_WINDOW = 1000;

/**
 * Candidates the name and text branches each take to rank the first RANK_WINDOW places. Past the exact-name and
 * prefix branches, which rows of thousands that merely contain a common word get ranked is arbitrary anyway, so
 * ranking 2 × 200 instead of 2 × 1,000 of them loses nothing a person sees and costs a fifth (the first pages
 * are nearly every search). Places past RANK_WINDOW rank the full window without the rows already placed.
 */
export const RANK_WINDOW = 200;

// Field weights. An exact name beats any sum of word scores (8 words × 68 < 1000).
const W = {
  exactName: 1000,
  namePrefix: 200,
  phraseInName: 100,
  phraseInDescription: 50,
  nameWord: 40,
  nameWordPrefix: 30,
  nameSubstring: 20,
  categoryWord: 20,
  categorySubstring: 12,
  description: 8,
};

// Real usage is one signal among relevance: at most a description match's worth, so it orders equally relevant
// matches and never lifts a weaker match over a name match. Usage is what the chain shows over 30 days (the site's
// own test-purchase wallet never counts): distinct paying wallets weigh most, paid calls add a little, and calls
// count only up to CALLS_PER_PAYER per wallet, so one wallet buying a thousand times ranks like one buying ten.
// 2·ln(1 + payers) + ½·ln(1 + calls): one buyer once ≈ 1.7, ten buyers ≈ 6, twenty buyers reach the cap.
const usageBoost = sql`least(${W.description}, ${recentUsageScore(sql`f.id`)})`;

/**
 * One word's score: the best of its matches in the name, plus those in categories and description. Name and
 * categories are normalised (`n`, `c` below) so ' word ' is a whole word; the description (`d`) is lower-cased only.
 * Plain LIKE only: per-row trigram similarity over descriptions costs ~0.1 ms a row, too much for the window.
 * A short word scores where it starts a word, as it matches (textMatches).
 */
function wordScore(w: string): SQL {
  const whole = `% ${like(w)} %`;
  const prefix = `% ${like(w)}%`;
  const inside = isShort(w) ? prefix : `%${like(w)}%`;
  const inDescription = isShort(w) ? startsAWord(sql`f.d`, w) : sql`f.d like ${inside}`;
  return sql`(
    case when f.n like ${whole} then ${W.nameWord} when f.n like ${prefix} then ${W.nameWordPrefix}
         when f.n like ${inside} then ${W.nameSubstring} else 0 end
    + case when f.c like ${whole} then ${W.categoryWord} when f.c like ${inside} then ${W.categorySubstring} else 0 end
    + case when ${inDescription} then ${W.description} else 0 end)`;
}

// The phrase is tried as typed and without its stop-words ("find me a weather server" → "weather").
function score(terms: SearchTerms): SQL {
  const phrase = like(terms.phrase);
  const core = like(terms.core);
  const multiWord = terms.words.length > 1;
  return sql`(
    case when f.n = ${` ${terms.phrase} `} or f.n = ${` ${terms.core} `} then ${W.exactName}
         when f.n like ${` ${phrase} %`} or f.n like ${` ${core} %`} then ${W.namePrefix}
         when f.n like ${`% ${core} %`} then ${W.phraseInName} else 0 end
    + ${multiWord ? sql`case when f.d like ${`%${core}%`} then ${W.phraseInDescription} else 0 end` : sql`0`}
    + ${sql.join(terms.words.map(wordScore), sql` + `)})`;
}

// Names and categories are short: common punctuation becomes spaces (nested replace() is far cheaper per row
// than regexp_replace or translate), runs of spaces collapse, and the field is padded so ' word ' is a whole word.
const normalised = (column: SQL) => {
  let out = sql`lower(${column})`;
  for (const ch of ["-", ".", ",", ":", ";", "/", "&", "(", ")", "'", "!", "?", "+"])
    out = sql`replace(${out}, ${ch}, ' ')`;
  return sql`' ' || btrim(replace(replace(${out}, '   ', ' '), '  ', ' ')) || ' '`;
};
/**
 * The best matches in relevance order (score, then verified, then name), with the number of matches in `total`:
 * exact when the branches held them all, else counted up to SEARCH_WINDOW + 1 (only then, and only once).
 * `filter` holds the category and price conditions.
 */
export async function rankedSearch(
  db: Db,
  terms: SearchTerms,
  filter: SQL,
  page: { limit: number; offset: number },
  plan: SearchPlan,
): Promise<RankedRow[]> {
  const rows = await rankedPage(db, terms, filter, page, plan);
  // A dense read stops after scanRows rows: fewer matches than the window there means the probe's rows were not
  // like the rest of the table, so the count would be short. The index path counts them instead (rare).
  if (plan.textDense && (rows.length === 0 || Number(rows[0]!.total) <= SEARCH_WINDOW))
    return rankedPage(db, terms, filter, page, { ...plan, textDense: false });
  return rows;
}

async function rankedPage(
  db: Db,
  terms: SearchTerms,
  filter: SQL,
  page: { limit: number; offset: number },
  plan: SearchPlan,
): Promise<RankedRow[]> {
  const run = async (p: typeof page, options?: Partial<RankOptions>) =>
    rowsOf<RankedRow>(await db.execute(rankedSearchSql(terms, filter, p, { plan, ...options })));
  const end = page.offset + page.limit;
  if (end <= RANK_WINDOW) return run(page);
  // A deeper page: the first RANK_WINDOW places are exactly the first pages' ranking, so no row shows twice
  // or never while a person pages on; the places after them rank the full window without those rows.
  const top = await run({ limit: RANK_WINDOW, offset: 0 });
  const placed = top.slice(page.offset, end);
  const more = page.limit - placed.length;
  if (top.length < RANK_WINDOW || more === 0) return placed;
  const rest = await run(
    { limit: more, offset: Math.max(0, page.offset - RANK_WINDOW) },
    { window: SEARCH_WINDOW, exclude: top.map((r) => r.id) },
  );
  // Both statements count the same matches; the total is the first one's.
  return [...placed, ...rest.map((r) => ({ ...r, total: top[0]!.total }))];
}

type RankOptions = { window: number; exclude: string[]; plan: SearchPlan };

/**
 * The listings that match, as a subquery `m` of COLUMNS: read in table order and stopped at scanRows when dense,
 * else from the trigram index. Used inside a MATERIALIZED CTE and read with a LIMIT outside it: the CTE runs only
 * as far as it is read, while the planner, seeing no LIMIT, plans for every match (index, not a hopeful scan).
 */
function matching(condition: (form: "index" | "scan") => SQL, base: SQL, dense: boolean): SQL {
  return dense
    ? sql`select ${COLUMNS} from (select ${COLUMNS}, search_text from ${listings} where ${base} limit ${searchPlanning.scanRows}) m where ${condition("scan")}`
    : sql`select ${COLUMNS} from ${listings} where ${base} and ${condition("index")}`;
}

/** The ranked search's statement (the bench prints its EXPLAIN ANALYZE). */
export function rankedSearchSql(
  terms: SearchTerms,
  filter: SQL,
  page: { limit: number; offset: number },
  options: Partial<RankOptions> = {},
): SQL {
  const base = sql`${listings.status} = 'approved' and ${filter}`;
  const {
    window = RANK_WINDOW,
    exclude = [],
    plan = { textDense: false, nameDense: false, recheckOnly: [] },
  } = options;
  // Four branches, each served by its own index and bounded: the exact name and names that start with the words
  // (a range on the btree over lower(name); the LIKE re-checks it whatever the collation), names that hold every
  // word (a common description word cannot crowd them out), and then anything that matches. The text matches
  // are read once for the branch and the count.
  // Read in table order, the text matches the count reads anyway hold the first name matches in the same order
  // (names are a part of the search text): when they hold enough, the names need no read of their own.
  const namesInCount = sql`select * from (select * from text_matches limit ${SEARCH_WINDOW + 1}) t where ${matchesName(terms, "scan")}`;
  return sql`
    with text_matches as materialized (${matching((form) => matchesSearchText(terms, form, plan.recheckOnly), base, plan.textDense)}),
    name_matches as materialized (${matching((form) => matchesName(terms, form), base, plan.nameDense)}),
    candidates as materialized (
      (select ${COLUMNS} from ${listings} where ${base} and lower(${listings.name}) in (${terms.phrase}, ${terms.core}) limit 10)
      union
      (select ${COLUMNS} from ${listings} where ${base} and lower(${listings.name}) >= ${terms.core}
         and lower(${listings.name}) < ${successor(terms.core)} and lower(${listings.name}) like ${`${like(terms.core)}%`} limit ${PREFIX_LIMIT})
      union
      -- Every name match is a text match (the search text starts with the name): only when the text branch
      -- cannot hold every match do the names need a branch of their own (a one-time filter: else never read).
      ${plan.textDense ? sql`(select * from (${namesInCount}) n limit ${window + 1}) union` : sql``}
      (select * from name_matches where (select count(*) from (select 1 from text_matches limit ${window + 1}) w) > ${window}
         ${plan.textDense ? sql`and (select count(*) from (${namesInCount}) n) <= ${window}` : sql``} limit ${window + 1})
      union
      (select * from text_matches limit ${window + 1})
    ),
    -- Each field normalised once per row (materialized: the planner would otherwise repeat it in every term).
    f as materialized (
      select candidates.*, ${normalised(sql`name`)} as n, ${normalised(sql`array_to_string(categories, ' ')`)} as c,
             lower(description) as d
      from candidates
    )
    -- Every candidate matches the text branch's condition, so when they number no more than the window that
    -- branch held every match and this is the count; otherwise the matches are counted, up to the cap.
    -- (An uncorrelated subquery is run only when the CASE reaches it.)
    select ${COLUMNS},
           case when (select count(*) from candidates) <= ${window} then (select count(*) from candidates)
                else (select count(*) from (select 1 from text_matches limit ${SEARCH_WINDOW + 1}) m)
           end as total
    from f
    ${
      exclude.length
        ? sql`where id not in (${sql.join(
            exclude.map((id) => sql`${id}::uuid`),
            sql`, `,
          )})`
        : sql``
    }
    order by ${score(terms)} + ${usageBoost} desc, verified desc, lower(name), id
    limit ${page.limit} offset ${page.offset}`;
}

const PREFIX_LIMIT = 50;

/** The public columns under their SQL names (columns.ts): the ranked rows are read back by fromRaw. */
const COLUMNS = rawColumns();

/** The smallest string above every string that starts with `text` (its last character moved up by one). */
function successor(text: string): string {
  const chars = [...text];
  const last = chars.pop()!;
  return chars.join("") + String.fromCodePoint(last.codePointAt(0)! + 1);
}

/** The matches of a text search counted up to `cap`, read as the plan says (see `matching`). */
export async function countMatches(
  db: Db,
  terms: SearchTerms,
  filter: SQL,
  plan: SearchPlan,
  cap: number,
): Promise<number> {
  const base = sql`${listings.status} = 'approved' and ${filter}`;
  const counted = async (dense: boolean) => {
    const result = await db.execute(
      sql`with t as materialized (${matching((form) => matchesSearchText(terms, form, dense ? [] : plan.recheckOnly), base, dense)}) select count(*)::int as n from (select 1 from t limit ${cap}) c`,
    );
    return Number(rowsOf<{ n: number }>(result)[0]?.n ?? 0);
  };
  const n = await counted(plan.textDense);
  return plan.textDense && n < cap ? counted(false) : n;
}
