-- Accent- and case-folded patient search (issue 57): "garcia" finds "María García". One SQL
-- function folds a text: lower case, the Latin letters with diacritics (U+00C0-U+024F) to their
-- base letter, and the ligatures ß, æ, œ to two letters. It is written out with translate() (no
-- extension: PGlite and PostgreSQL alike, and IMMUTABLE so an index can hold it); src/shared/fold.ts
-- is the same fold for the client and the tests, which compare the two for every letter. The
-- search and the duplicate check compare folded texts; the trigram indexes of migration 0020 are
-- replaced by indexes over the folded texts (features/patients/search.ts must keep the same
-- expressions for the planner to use them).
CREATE FUNCTION medledger_fold(value text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN replace(replace(replace(replace(replace(replace(translate(lower(value),
    'ÀÁÂÃÄÅÇÈÉÊËÌÍÎÏÑÒÓÔÕÖÙÚÛÜÝàáâãäåçèéêëìíîïñòóôõöùúûüýÿĀāĂăĄąĆćĈĉĊċČčĎďĒēĔĕĖėĘęĚěĜĝĞğĠġĢģĤĥĨĩĪīĬĭĮįİĴĵĶķĹĺĻļĽľŃńŅņŇňŌōŎŏŐőŔŕŖŗŘřŚśŜŝŞşŠšŢţŤťŨũŪūŬŭŮůŰűŲųŴŵŶŷŸŹźŻżŽžƠơƯưǍǎǏǐǑǒǓǔǕǖǗǘǙǚǛǜǞǟǠǡǦǧǨǩǪǫǬǭǰǴǵǸǹǺǻȀȁȂȃȄȅȆȇȈȉȊȋȌȍȎȏȐȑȒȓȔȕȖȗȘșȚțȞȟȦȧȨȩȪȫȬȭȮȯȰȱȲȳĐđĦħŁłØøŦŧıĿŀ',
    'aaaaaaceeeeiiiinooooouuuuyaaaaaaceeeeiiiinooooouuuuyyaaaaaaccccccccddeeeeeeeeeegggggggghhiiiiiiiiijjkkllllllnnnnnnoooooorrrrrrssssssssttttuuuuuuuuuuuuwwyyyzzzzzzoouuaaiioouuuuuuuuuuaaaaggkkoooojggnnaaaaaaeeeeiiiioooorrrruuuusstthhaaeeooooooooyyddhhlloottill'),
    'ß', 'ss'), 'æ', 'ae'), 'Æ', 'ae'), 'œ', 'oe'), 'Œ', 'oe'), 'ẞ', 'ss');--> statement-breakpoint
DROP INDEX IF EXISTS "patients_search_trgm_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "users_search_trgm_idx";--> statement-breakpoint
CREATE INDEX "patients_search_fold_idx" ON "patients" USING gin ((medledger_fold(coalesce("first_name", '') || ' ' || coalesce("last_name", '') || E'\x01' || coalesce("email", '') || E'\x01' || coalesce("patient_id", ''))) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_search_fold_idx" ON "users" USING gin ((medledger_fold(coalesce("first_name", '') || ' ' || coalesce("last_name", '') || E'\x01' || coalesce("email", ''))) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "patients_name_fold_idx" ON "patients" USING btree ("created_by_hospital_id", medledger_fold("last_name"), medledger_fold("first_name"));
