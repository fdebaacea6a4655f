"""The interactive graph canvas: positions and moves drawn in the browser by Cytoscape.js.

The canvas is the `streamlit-cytoscape` component (docs/ui.md says why that one):
the browser pans, zooms, fits and drags without asking the server; the server
answers only when the graph itself changes. Its data come from the one
neighbourhood query (`queries.api`, through `explorer.ui.data`, on Neo4j, the
networkx mirror or the solved arrays): the Neighbourhood tab starts from the
positions within k moves of the page's position, and expanding a node asks the
same query for that node's 1-step neighbourhood, whose new positions the
component adds in place around it. Collapsing takes away what an expansion
added (unless something else still holds it). The Cypher console draws its
results on the same canvas (`console_elements`).

Styling is by selectors over each node's data, so switching the colouring or
the edge labels changes only the style sheet, never the elements: every node
carries its fill for each colouring (`_fill_value`, `_fill_remoteness`, ...).
Value colours come from explorer.render.palette, draw levels from the draw
map's scale (analysis_panel.LEVEL_COLOURS).

Layouts: layered by remoteness and concentric around the focus are positions
computed here (a `preset` layout); force-directed is fcose, in the browser.
A layout is computed when the canvas is made or the layout is switched; an
expansion only adds places for the nodes it brought, around the expanded node (in the layered layout, in
each one's band, whose names it sends anew: `grow_layout`, `Bands`), so it moves nothing already placed.

The component is used as it is; a small script of ours (static/canvas_view.js, run by `keep_view`)
reaches its Cytoscape.js instance in the page and keeps every fit clear of the component's overlays
(info panel, bars, zoom buttons), skips the component's whole-canvas force layout on an expansion
(so nothing already drawn moves) and after an expansion moves the view only as much as it must.

In a game stored up to symmetry, nodes are drawn, labelled and opened in the orientation that
follows the moves from the page's position, and moves are named as on the board drawn at their
start, as the moves table names them (`orient`); a move into a node drawn as the mirror image of
the board it leaves is marked, and the legend says that mirror images are one node.

The package, by concern (each module imports only those above it):

| module | what lives there |
|---|---|
| `marks` | limits, sizes, label metrics and the colours that are not values |
| `elements` | a position's node, a move's edge, the graph on the canvas (`Grown`: start, expand, collapse), `orient`, the console's elements |
| `captions` | where the moves' names go (`place_move_names`, `move_path`) |
| `layout` | the layouts (layered, concentric, force-directed), bends, an expansion's places (`grow_layout`) |
| `style` | the style sheet (`style_rules`) and the legend |
| `ahead` | what the canvas needs ahead of time: what expanding each node adds (and where), what collapsing takes away, its other layouts |
| `search` | find on the canvas: a position (added with its path from the focus) or a filter; the marks |
| `clusters` | the level of detail: the positions drawn grouped into clusters that open (by value and remoteness, distance, cycle), and their layout |
| `panel` | the component (`draw`), the Neighbourhood tab (a Streamlit fragment; its saved scene in the URL, state.url_scene), the view keeper (the console's canvas, explorer/ui/console_canvas.py, uses them) |

The names other modules use are imported here, so `from explorer.ui import canvas; canvas.start(...)` works
as before the split.
"""

from explorer.ui.canvas.captions import _label_box, move_label_step, move_path, place_move_names
from explorer.ui.canvas.elements import (MIRRORED_MARK, Grown, _board, board_image, board_label, collapse,
                                         console_elements, expand, has_boards, move_colour, move_edge, orient, position_node,
                                         remove, set_boards, start)
from explorer.ui.canvas.layout import (CANVAS_SHAPE, PLACED, _hops, bend_around, concentric_positions, grow_layout,
                                       layered_positions, layout_for, place_around, row_width, side_by_side)
from explorer.ui.canvas.marks import (BOARD_SIZE, EXPAND_LIMIT, FOCUS_RING, HEIGHT, HIGHLIGHT,
                                      LABEL_CHAR, LABEL_FONT, LARGE, MAX_NODES, MIN_LABEL_PX, MOVE_CHAR, MOVE_FONT,
                                      NODE_SIZE, OPTIMAL_EDGE, OTHER_EDGE, READABLE_ZOOM, SPACING, label_height)
from explorer.ui.canvas.panel import (ACTIONS, COLOURINGS, EXPAND_DIRECTIONS, GROWN, LAYOUTS, VIEW_KEEPER,
                                      draw, keep_view, neighbourhood_panel)
from explorer.ui.canvas.style import LEAN_MARK, PERSPECTIVES, legend, style_rules

__all__ = [
    "ACTIONS", "BOARD_SIZE", "CANVAS_SHAPE", "COLOURINGS", "EXPAND_DIRECTIONS", "PERSPECTIVES",
    "EXPAND_LIMIT", "FOCUS_RING", "GROWN", "HEIGHT", "HIGHLIGHT", "LABEL_CHAR", "LABEL_FONT", "LARGE", "LAYOUTS", "LEAN_MARK",
    "MAX_NODES", "MIN_LABEL_PX", "MIRRORED_MARK", "MOVE_CHAR", "MOVE_FONT", "NODE_SIZE", "OPTIMAL_EDGE", "OTHER_EDGE",
    "PLACED", "READABLE_ZOOM", "SPACING", "VIEW_KEEPER", "Grown", "_board", "_hops", "_label_box", "bend_around",
    "board_image", "board_label", "collapse", "concentric_positions", "console_elements", "draw",
    "expand", "grow_layout", "has_boards", "keep_view", "label_height", "layered_positions", "layout_for", "legend",
    "move_colour", "move_edge", "move_label_step", "move_path", "neighbourhood_panel", "orient", "place_around",
    "place_move_names", "position_node", "remove", "row_width", "set_boards", "side_by_side", "start", "style_rules",
]
