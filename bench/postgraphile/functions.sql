-- The peer's computed columns: the same questions our server answers, read from the same
-- precomputed tables (branch_model, treatment, method_stats, node_stats,
-- search_document), so that PostGraphile is measured on the same read model.
-- Each is STABLE (PostGraphile inlines it into the request's one SQL statement) and
-- orders its rows as our server does.

CREATE OR REPLACE FUNCTION strength_name(rank integer) RETURNS text
LANGUAGE sql IMMUTABLE STRICT AS $$
  SELECT CASE rank WHEN 1 THEN 'CORE' WHEN 2 THEN 'USED' WHEN 3 THEN 'MENTIONED' END
$$;

-- Roots, in pre-order (by name).
CREATE OR REPLACE FUNCTION roots() RETURNS SETOF node
LANGUAGE sql STABLE AS $$
  SELECT * FROM node WHERE parent_id IS NULL ORDER BY pre
$$;

-- A node's children in pre-order.
CREATE OR REPLACE FUNCTION node_children(n node) RETURNS SETOF node
LANGUAGE sql STABLE AS $$
  SELECT * FROM node WHERE parent_id = n.id ORDER BY pre
$$;

-- The By-model table: newest release first, undated after, ties by name (recency_rank,
-- copied into branch_model so that a page is a range of its (node_id, recency_rank) index).
CREATE OR REPLACE FUNCTION node_by_model(n node) RETURNS SETOF branch_model
LANGUAGE sql STABLE AS $$
  SELECT b.* FROM branch_model b WHERE b.node_id = n.id ORDER BY b.recency_rank
$$;

CREATE OR REPLACE FUNCTION branch_model_strongest(b branch_model) RETURNS text
LANGUAGE sql STABLE AS $$ SELECT strength_name(b.strongest_rank) $$;

-- One By-model row's methods: the model's treatments of the branch's methods (those whose
-- node lies in the branch's pre-order interval: a range of the (model_id, node_pre) index),
-- strongest first, then by name (name_rank is the casefolded order).
CREATE OR REPLACE FUNCTION branch_model_methods(b branch_model) RETURNS SETOF treatment
LANGUAGE sql STABLE AS $$
  SELECT t.* FROM node n
  JOIN treatment t ON t.model_id = b.model_id AND t.node_pre BETWEEN n.pre AND n.last
  JOIN method m ON m.id = t.method_id
  WHERE n.id = b.node_id
  ORDER BY t.strength_rank, m.name_rank
$$;

CREATE OR REPLACE FUNCTION treatment_strength(t treatment) RETURNS text
LANGUAGE sql STABLE AS $$ SELECT strength_name(t.strength_rank) $$;

-- All methods by name.
CREATE OR REPLACE FUNCTION methods_by_name() RETURNS SETOF method
LANGUAGE sql STABLE AS $$
  SELECT * FROM method ORDER BY name_rank
$$;

CREATE OR REPLACE FUNCTION method_strongest(m method) RETURNS text
LANGUAGE sql STABLE AS $$
  SELECT strength_name(s.strongest_rank) FROM method_stats s WHERE s.method_id = m.id
$$;

CREATE OR REPLACE FUNCTION method_model_count(m method) RETURNS integer
LANGUAGE sql STABLE AS $$
  SELECT s.model_count FROM method_stats s WHERE s.method_id = m.id
$$;

-- A method's treatments: strongest first, then by model name.
CREATE OR REPLACE FUNCTION method_treatments(m method) RETURNS SETOF treatment
LANGUAGE sql STABLE AS $$
  SELECT t.* FROM treatment t JOIN model o ON o.id = t.model_id
  WHERE t.method_id = m.id ORDER BY t.strength_rank, o.name_rank
$$;

-- Search: every word of q as a prefix, ranked as our server ranks (ts_rank with the same
-- weights; ties by kind and id). Words are what api.search_index.words_of takes: runs of
-- word characters, lower-cased, at most 32.
CREATE OR REPLACE FUNCTION search(q text) RETURNS SETOF search_document
LANGUAGE sql STABLE AS $$
  WITH query AS (
    SELECT to_tsquery('simple', string_agg(word || ':*', ' & ' ORDER BY position)) AS tsq
    FROM (
      SELECT word, position
      FROM regexp_matches(lower(q), '\w+', 'g') WITH ORDINALITY AS found(match, position),
           LATERAL (SELECT match[1] AS word) w
      ORDER BY position LIMIT 32
    ) words
  )
  SELECT d.* FROM search_document d, query
  WHERE d.document @@ query.tsq
  ORDER BY ts_rank('{0.1, 0.25, 0.5, 1.0}', d.document, query.tsq) DESC, d.kind, d.ref_id
$$;

CREATE OR REPLACE FUNCTION search_document_node(d search_document) RETURNS node
LANGUAGE sql STABLE AS $$ SELECT * FROM node WHERE d.kind = 'node' AND id = d.ref_id $$;

CREATE OR REPLACE FUNCTION search_document_method(d search_document) RETURNS method
LANGUAGE sql STABLE AS $$ SELECT * FROM method WHERE d.kind = 'method' AND id = d.ref_id $$;

CREATE OR REPLACE FUNCTION search_document_model(d search_document) RETURNS model
LANGUAGE sql STABLE AS $$ SELECT * FROM model WHERE d.kind = 'model' AND id = d.ref_id $$;

-- Lists, not connections, where our schema has lists (PostGraphile's smart tags).
COMMENT ON FUNCTION node_children(node) IS E'@behavior -connection +list';
COMMENT ON FUNCTION branch_model_methods(branch_model) IS E'@behavior -connection +list';
COMMENT ON FUNCTION method_treatments(method) IS E'@behavior -connection +list';
COMMENT ON FUNCTION roots() IS E'@behavior -connection +list';
