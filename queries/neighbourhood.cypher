// neighbourhood: the positions within {{k}} moves of a position, and the moves between them.
//
// Answers "what is around this position?". $direction 'out' follows moves
// forward (where play can go), 'in' backward (how play can arrive here), and
// 'both' ignores the direction of moves. `distance` is the fewest moves in that
// direction (ANY SHORTEST = one breadth-first search, not an enumeration of
// paths). `moves` lists each position's moves to the other positions returned,
// so the rows together are the induced sub-graph of the nearest $limit.
//
// The nearest $limit are chosen before anything is collected (issue 35): the
// whole ball was collected and its list of members carried on every row of the
// sort, which at k=4 on dobutsu:small (and $limit 2,001, the page's) went over
// Neo4j's db.memory.transaction.max; now the lists hold at most $limit positions.
//
// Parameters:
//   $game       the Game id (Position.game)
//   $key        the position's canonical key
//   $direction  'out', 'in' or 'both'
//   $limit      the most positions returned, nearest first (queries/api.py asks
//               for one more to detect that the cap was hit)
//   {{k}}       the radius. Cypher cannot take a path-length bound as a
//               parameter, so queries/api.py substitutes a range-checked small
//               integer; by hand, replace it with a number such as 2.
//
// Example (the explorer's Cypher console, or any Bolt client, with {{k}} replaced by 2):
//   :param game => 'nim(heaps=1-2-3)'
//   :param key => 'A|1-2-3'
//   :param direction => 'out'
//   :param limit => 100
MATCH (p:Position {game: $game, key: $key})
CALL (p) {
  WITH p WHERE $direction = 'out'
  MATCH path = ANY SHORTEST (p)-[:MOVE]->{0,{{k}}}(n)
  RETURN n, length(path) AS distance
  UNION
  WITH p WHERE $direction = 'in'
  MATCH path = ANY SHORTEST (p)<-[:MOVE]-{0,{{k}}}(n)
  RETURN n, length(path) AS distance
  UNION
  WITH p WHERE $direction = 'both'
  MATCH path = ANY SHORTEST (p)-[:MOVE]-{0,{{k}}}(n)
  RETURN n, length(path) AS distance
}
WITH n, distance
ORDER BY distance, n.key
LIMIT $limit
WITH collect({node: n, distance: distance}) AS found
WITH found, [f IN found | f.node] AS members
UNWIND found AS f
WITH members, f.node AS n, f.distance AS distance
CALL (n, members) {
  OPTIONAL MATCH (n)-[m:MOVE]->(t)
  WHERE t IN members
  WITH m, t
  ORDER BY m.label, t.key
  RETURN collect(CASE WHEN m IS NOT NULL THEN {label: m.label, to: t.key, optimal: m.optimal} END) AS moves
}
RETURN n.key AS key, distance, n.value AS value, n.remoteness AS remoteness, n.to_move AS to_move,
       n.terminal AS terminal, n.on_cycle AS on_cycle, moves
ORDER BY distance, key
