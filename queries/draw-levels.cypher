// draw-levels: the draws of a game by draw level, as GamesmanClassic's pure draw analysis defines them.
//
// Level 0's fringe is every draw with a losing move; draw-wins can force the
// opponent onto it, draw-loses cannot avoid it; level L+1's fringe is every
// draw left with a move to a level-L draw-win (docs/analysis.md). The loader
// stores the result on each draw (draw_class, draw_level, draw_remoteness).
// Two tables:
//   levels    {level, class, positions}: draw-wins and draw-loses per level,
//             then the non-pure and dead draws (level null)
//   deepest   {key, class, level, draw_remoteness}: the highest levels first
//
// Parameters:
//   $game    the Game id (Game.id and Position.game)
//   $limit   the most rows of `deepest`
//
// Example:
//   :param game => 'ponghauki'
//   :param limit => 10
MATCH (p:Position {game: $game})
WHERE p.draw_class IS NOT NULL
WITH collect({key: p.key, class: p.draw_class, level: p.draw_level, draw_remoteness: p.draw_remoteness}) AS draws
CALL (draws) {
  UNWIND draws AS d
  WITH d.level AS level, d.class AS class, count(*) AS positions
  ORDER BY level IS NULL, level, class
  RETURN collect({level: level, class: class, positions: positions}) AS levels
}
CALL (draws) {
  UNWIND draws AS d
  WITH d WHERE d.level IS NOT NULL
  ORDER BY d.level DESC, d.draw_remoteness DESC, d.key
  LIMIT $limit
  RETURN collect(d) AS deepest
}
RETURN levels, deepest
