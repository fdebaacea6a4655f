// rule-diff: two loaded rule sets of one game, and the positions both hold whose value differs.
//
// The Cypher twin of `gamegraph diff` (explorer/analysis/diff.py), which runs it with
// `--backend neo4j` (both games must be loaded; no row when one is not). Positions
// are matched by key through the (game, key) index, so this is O(V1 + V2).
// One row:
//   first_positions, second_positions   the sizes of both games
//   first_start, second_start           the value of each start, for its mover
//   shared                              positions both games hold
//   changed                             {key, before, before_remoteness, after, after_remoteness}
//                                       of each shared position whose value differs
//
// Parameters:
//   $first, $second   Game ids (Game.id and Position.game)
//
// Example:
//   :param first => 'mutorere'
//   :param second => 'mutorere(putahi=free)'
// Two MATCH clauses, not one pattern: a game compared with itself uses one START relationship twice.
MATCH (g1:Game {id: $first})-[:START]->(s1:Position)
MATCH (g2:Game {id: $second})-[:START]->(s2:Position)
WHERE g1.complete AND g2.complete
CALL () {
  MATCH (a:Position {game: $first})
  WHERE a.key IS NOT NULL
  MATCH (b:Position {game: $second, key: a.key})
  RETURN count(*) AS shared,
         collect(CASE WHEN a.value <> b.value
                      THEN {key: a.key, before: a.value, before_remoteness: a.remoteness,
                            after: b.value, after_remoteness: b.remoteness} END) AS changed
}
RETURN g1.positions AS first_positions, g2.positions AS second_positions,
       s1.value AS first_start, s2.value AS second_start, shared, changed
