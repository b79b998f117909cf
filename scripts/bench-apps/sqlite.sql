-- make bench-apps's sqlite3 workload (run by sqlite.sh, in a new directory with rows.csv).
-- Every statement prints a result that is the same on every run, or nothing: no timings.
-- The page cache holds the whole database, so the time is sqlite3's own work: rows built and
-- copied into pages, pages split and rebalanced, records sorted, a database copied by VACUUM.
.bail on
PRAGMA synchronous = OFF;
PRAGMA temp_store = MEMORY;
PRAGMA cache_size = -262144;
CREATE TABLE docs(id INTEGER PRIMARY KEY, cat INTEGER, n INTEGER, word TEXT, body TEXT);

-- bulk insert, in the rows' order
.mode csv
.import rows.csv docs
.mode list
SELECT 'rows', count(*), sum(length(body)) FROM docs;

-- indexes built from a scan
CREATE INDEX docs_word ON docs(word);
CREATE INDEX docs_cat_n ON docs(cat, n);

-- scans, grouped and sorted
SELECT cat, count(*), sum(length(body)), max(n) FROM docs GROUP BY cat ORDER BY cat LIMIT 4;
SELECT 'sorted', sum(length(x)) FROM (SELECT body || word AS x FROM docs ORDER BY body);
SELECT id, word FROM docs ORDER BY body DESC LIMIT 3;

-- inserts in a scattered order into a table whose index on text keys splits pages all over
CREATE TABLE scattered(k TEXT, id INTEGER, body TEXT);
CREATE INDEX scattered_k ON scattered(k);
INSERT INTO scattered SELECT substr(body, 1 + n % 20, 48), id, body FROM docs
    ORDER BY (id * 2654435761) % 4294967296;
SELECT 'scattered', count(DISTINCT k), sum(length(body)) FROM scattered;

-- aggregates that build long strings, and a join on them
CREATE TABLE words AS SELECT word, count(*) AS c, group_concat(substr(body, 1, 40), ' ') AS heads
    FROM docs GROUP BY word;
SELECT 'words', count(*), sum(length(heads)) FROM words;
SELECT 'joined', count(*), sum(length(w.heads)) FROM docs d JOIN words w ON w.word = d.word
    WHERE d.cat < 8;

-- rows rewritten longer, and deleted: cells moved within their pages
UPDATE docs SET body = upper(body) || ' ' || word WHERE cat < 24;
DELETE FROM docs WHERE n % 3 = 0;
DELETE FROM scattered WHERE id % 2 = 0;
SELECT 'kept', count(*), sum(length(body)) FROM docs;

-- the whole database copied into a new one
VACUUM;
PRAGMA integrity_check;
