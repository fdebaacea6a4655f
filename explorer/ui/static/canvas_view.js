// The canvas's view, kept clear of the component's overlays, and expansions grown in place.
//
// explorer/ui/canvas/panel.py (keep_view) runs this in the page (st.html) below the canvas. It reaches the
// streamlit-cytoscape frames of the same page (same origin) and adjusts each Cytoscape.js instance
// once, without changing the vendored component:
//
// 1. Every fit (a layout's, the component's own when its frame gets its size, the Fit button's)
//    fits into the part of the canvas that no overlay covers: the info panel on the left, the node
//    action bar beside it, the toolbar at the top right and the zoom buttons at the bottom right.
//    Cytoscape's fit knows only one padding for all four sides, so nodes were drawn under them.
// 2. An expansion grows in place. The component animates an expansion with a force layout of the
//    whole canvas (everything moves, then the server's places move it back); that force layout is
//    skipped: the new nodes start on the expanded node and glide to the places the server's layout
//    gives them, and with a preset layout (layered, concentric) nothing else moves.
// 3. After an expansion the view changes only as much as needed (pan, and zoom out, never in but to the readable
//    zoom, and never below it) so that what was in sight, the expanded node and its new neighbours are all
//    clear of the overlays; where that needs a lower zoom, the expanded node and its neighbours, or at least
//    it and what it brought (reveal). The zoom is first kept where the labels are CONFIG.comfortLabel px (comfortFirst):
//    what was added is shown in part at that size rather than everything shrunk to the readable zoom; what was in sight
//    and what was added are shown whole down to WHOLE_SHARE of that zoom, before in part at it. The focus (the
//    page's position), if it was in sight, stays in sight: the view zooms out for it, down to the readable zoom.
//    From a view under the readable zoom (a drawing opened whole at WHOLE_SHARE of it, 7, or zoomed out), an
//    expansion's view is made at the readable zoom: the zoom is raised to it (expansionLift).
//    The view after an expansion has one owner and is made once (expansionView): from the double-click on, a tap's
//    reveal still waiting (10) is not made; the expansion's reveal waits until what it added stands at its places and
//    the info panel (opened by the double-click's selection) is steady, so its clear area is final; the server's answer
//    makes the view anew only where its layout placed a node elsewhere than it was drawn (or brought one not shown
//    ahead, 15). The same expansion ends in the same view whether the answer comes before or after the panel is steady
//    (three reveals, the last to come winning, ended one scripted expansion at zoom 0.83 or 0.62 by the load).
// 4. The component's highlight (a selected node's moves, an expansion's new nodes) is red, which on
//    this canvas means a loss: its rules, which come last in every style sheet the component sets,
//    are followed by rules of ours in the value-neutral colour the canvas package gives (window.__ggCanvas).
// 5. The info panel leaves out a node's `id` (the stored key, which in a game stored up to symmetry
//    is the mirror image of the board drawn; the panel's title and `position` show the board drawn),
//    and its node action bar is placed beside the panel once the panel has opened (the component
//    places it while the panel's width is still growing, over the panel's title).
// 6. On a large canvas the moves are not drawn while the view pans or zooms (Cytoscape's
//    hideEdgesOnViewport): thousands of moves are what make each frame slow.
// 7. The default view stays readable: a layout's fit (the canvas's first view, a new layout) never
//    zooms out past CONFIG.readable (labels and boards of a part of a long game were a third of
//    their size), and where the whole drawing does not fit at that zoom the view is centred on the
//    focus (the page's position); so is the component's own fit when its frame gets its size. The
//    Fit button still shows everything; Ctrl + wheel or the zoom buttons zoom further out. When the
//    whole drawing does not fit at that zoom, the window shown holds the focus and its neighbours and
//    is shifted into the drawing's box, so no band of the canvas stays empty beside nodes out of sight.
//    A layout of the whole canvas (the first, another one, boards turned on or off, "Lay out again")
//    ends in this view; an expansion never does (3). A drawing only a little too large for the readable zoom (its
//    whole fits at WHOLE_SHARE of it or more) is shown whole instead, its labels drawn at CONFIG.minLabel px where clear (21).
// 8. The wheel scrolls the page, as over a map embedded in a page: a plain wheel over the canvas is
//    left to the page (Cytoscape never sees a wheel) and a hint, "Ctrl + scroll to zoom", shows a
//    moment; Ctrl/⌘ + wheel zooms, and so does a plain wheel after a click on the canvas, until the
//    pointer leaves the canvas's frame: by NOTCH a notch either way, and a trackpad's pinch as the fingers
//    move. The zoom cannot go below FLOOR times the zoom that fits the
//    whole drawing (it went down to specks); the +, − and fit buttons are the component's, unchanged.
//    The window's edges fall between nodes where they can: a node is shown whole (its board and label) or
//    not at all (with boards on, the top node was cut in half at the readable zoom).
//
// 9. A large canvas (canvas/style.py: style_rules, large) is drawn with a lean style sheet: Cytoscape.js computes
//    every property a rule sets for each of thousands of elements before the first frame, so the
//    component's default look, which ours override, is left out of a sheet marked CONFIG.leanMark. The
//    wrapper that does it goes in when the component makes its Cytoscape.js instance (trapInstance), so
//    that even the first drawing has the lean sheet; a frame caught later gets it from its next sheet.
// 10. A click on a node opens the info panel over the drawing's left part: once it has opened, the view
//    pans as little as it can (reveal) so that the node clicked and its neighbours are beside the panel, not
//    under it, zooming out no lower than the readable zoom (with boards on, half of it: PANEL_SHARE), or the node
//    alone where they do not fit at that zoom; first, as 3, at the comfortable zoom (comfortFirst). The opened panel
//    takes at most CONFIG.panelShare of the canvas's width (tidyPanel), and the zoom bar's "Recenter Veiw" is retitled.
//    The reveal waits until a second click can no longer make the click a double-click, and is not made if one
//    did (an expansion's view is then the one, 3), nor if another node was clicked since (askView).
//
// 11. A label or a move's name smaller on screen than CONFIG.minLabel px is hidden (class gg-speck), not
//    drawn as a speck nobody can read; zooming in brings it back. Cytoscape's min-zoomed-font-size rounds
//    the zoom up to a power of two, so names 5 px high stayed drawn at zoom 0.5 to 1.
// 12. A move's name drawn over a node (its disc or board, or its label), over another name or across another move's
//    line is hidden (class
//    gg-tucked) until the move or one of its ends is selected or under the pointer: the force-directed
//    layout, made in the browser, drew names under the nodes' labels. Looked at again after every layout,
//    drag and expansion. A name shown on a selection (or an expansion's highlight) is drawn only where it is
//    clear (class gg-shown): at its place, or slid along its move to the nearest clear spot, else just beside its line
//    (revealNames). A move ends at its target's label where it comes through it (an upward move's arrowhead was under
//    the label's card), at the node where the label is hidden (arrowEnds).
// 13. The layered layout names its bands ("remoteness 3", "draws, 2 from here") left of each band's leftmost
//    node: the server sends them with the focus's data (`_rows`, JSON of model x, y and text; "" in another
//    layout; an expansion's answer sends them anew, in `ggData`, for the bands its nodes went into), and they are
//    written on a layer over the drawing at a fixed 11 px, moved with every pan and zoom;
//    a name that the canvas's edge or an overlay would cut, that would lie over a node, its label or a move's name, or
//    that a move's line would run through, is moved further left, else right of the band's rightmost node (`x2`), else
//    (the band's ends out of the clear area: its left end under the opened info panel, its right end past the canvas's
//    edge) inside the band's extent, at the clear area's left edge or in a gap beside one of its nodes; where moves
//    cross every one of those spots, at the first of them on its opaque card over the moves' lines (never over an
//    arrowhead); else just above the band's nodes (above the line's tallest, then above those under the spot); else, the
//    last resort, at its height over moves that run along under its card (never over an arrowhead; marked data-along);
//    and hidden where none of those spots is whole and clear (nor clear of the names placed before it), until the view
//    shows it so; a large canvas names no band. The layer's data-placed is "false" from any change until the names are
//    placed for the view as it then is (nothing gliding): what a test waits for before it measures them.
// 14. The canvas's search (canvas/search.py) sends a layout marked `ggFind` (the keys found): nothing moves,
//    and the view brings what was found into the middle of the clear area (`showFound`), with as much of the path from
//    the focus to it as fits at a zoom whose labels are drawn, when it was added with that path; after a path was
//    added for it, the expansion's layout places the path first (on a grouped canvas, whose answer is the whole
//    canvas grouped anew, its places are taken without a fit, then what was found is shown). The one position found becomes the node selected,
//    so the info panel shows it, not the node selected before (a filter's several matches: nothing selected;
//    `selectFound`).
// 15. An expansion and a collapse are shown at once, without waiting for the server (issue 35): the server sends the
//    canvas's next ring ahead (canvas/ahead.py: JSON in the element #gg-ahead, below the canvas):
//    for each node, what a double-click on it adds (positions, moves, and in a layout placed by the server their
//    places, the very ones its answer gives), and for each expanded node what collapsing it takes away. A
//    double-click adds the node's ring at once (class gg-ahead, gliding out of the node as the server's expansion
//    does; while they glide they take no click, which goes to the node under them) and a click on "Collapse what
//    it expanded" takes its nodes off at once. The component still sends the
//    event and the server's answer still comes: its elements settle the data of what was shown (a label in another
//    orientation, a move's bend) and take off what it did not add; nothing shown moves again, nor does the view, where
//    the answer places everything as the ring did (3). A ring is used only
//    when it was made for the canvas as it is (its focus and its numbers of nodes and moves), and one at a time
//    (until the answer comes, or AHEAD_WAIT_MS, a second double-click waits for the server as before).
//    A grouped canvas (canvas/clusters.py) gets rings too (ahead.grouped_ahead, `grouped`): a double-click on a
//    cluster opens it at once (the cluster and its bundled moves hidden, class gg-gone, its positions gliding out of
//    it), one on a position drawn as itself expands it (what moves glides to its new place, `m`; what changes, a
//    cluster's count or a move's bend, takes its new data, `d`). The server's answer keeps the component (it was
//    mounted anew, a new frame: seconds): the elements the component adds replace what it drew (replaceWith), and
//    its layout is an expansion's (ggExpand), so nothing moves again. A double-click on a node the server does not
//    hold is answered at once (#gg-refused, below the canvas, counts the refusals): what was shown ahead is taken
//    back (dropAhead; watchRefused). "Collapse what it expanded" on a grouped canvas is shown at once the same way
//    (the payload's `shut`: what is taken out of the clusters, or the cluster closed again, as a ring; collapseAhead),
//    and the server's answer to it is marked as an expansion's, so nothing moves again.
// 16. A layout chosen in the Layout box is switched to at once: the server sends every other layout of the canvas
//    ahead with the ring (canvas/ahead.py, layouts_of: a preset's places, the moves' bends and names, the layered
//    bands' names; fcose's options), and a click on an option of the box (its listbox is labelled "Layout") lays
//    the canvas out from it, fitted readably (7). The choice still reaches the server (the saved scene, the
//    downloads); its answer's layout of the same kind is then skipped, since the canvas is already there (a second
//    fcose would place the nodes anew). Until the server's next ring comes, nothing else is shown ahead (the rings'
//    places were made for the layout before). A grouped canvas's other layouts come the same way (grouped_ahead).
// 17. A colouring chosen in the "Colour by" box is drawn at once: the server sends its style rules under every
//    colouring with the ring (`styles`, canvas/style.py's style_rules each), and a click on an option puts that
//    colouring's rules in place of the current ones in the sheet the component last set. The server's answer sets
//    the same sheet, which is then not set again (a sheet equal to the last one is skipped: restyling a large canvas
//    costs what drawing it does).
// 18. A board is drawn on a node only while it can be read: where a node with boards on is under CONFIG.minBoard px wide
//    (the game's own, Offers.board_px, else canvas/marks.py MIN_BOARD_PX) on screen (the zoom times CONFIG.boardSize), its picture is not drawn (class gg-glyph) and the node shows as a
//    glyph, its shape filled in the value colour (the picture covered 88% of it: a speck of grey board with a hairline
//    of colour); zooming in brings the boards back. Looked at, as 11, when the zoom crosses the threshold.
// 19. "Boards on the nodes" turned on or off is drawn at once, on a plain or a grouped canvas: the server sends the
//    canvas with its boards turned the other way ahead with the ring (canvas/ahead.py boards_of, grouped_ahead's
//    `boards`: the nodes' data that change, a picture added or taken off, and the layout the server then makes, since
//    a board is larger than a disc, in 16's form) and its style sheets under every colouring (`styles.boards`). A
//    click on the box (its input is labelled "Boards on the nodes") sets the nodes' data, puts the sheet in place as
//    17 does and lays the canvas out as 16 does, fitted readably (7). The click still reaches the server (the legend,
//    Size by, the downloads), whose answer then sets the same data and sheet and its layout is skipped; until its next
//    ring comes nothing else is shown ahead.
// 20. A node's label that a move between two other nodes runs through is put beside its node or above it, where no move
//    crosses it and it covers nothing (placeCaptions), once the nodes are still after a layout, a drag or an expansion;
//    a move that still runs through a label is bent round it (routeAround).
// 21. Below the zoom at which labels are drawn at their size (a Fit of a drawing wider than the canvas), once the zoom is
//    still, the labels are drawn at CONFIG.minLabel px on screen where they cover no node and no other label (smallLabels).
//
// The server marks its layouts: `ggExpand` (the node expanded), `ggNew` (the nodes it brought) and, for its
// own layouts, `ggData` (the bends and names of moves already drawn, placed anew around the new nodes).
// Cytoscape ignores options it does not know. `cy.scratch('_gg')` tells tests the hooks are in.
(function () {
    "use strict";
    if (window.__ggCanvasView) return;  // once per page, however often Streamlit runs this again
    window.__ggCanvasView = true;
    const MARGIN = 6;            // px between the fitted drawing and an overlay, and the canvas's edge
    const GLIDE_MS = 350;        // the view's move after an expansion
    const FLOOR = 0.5;           // the least zoom, as a share of the zoom that fits the whole drawing (8)
    const BAND = 30;             // px of the canvas a window may leave empty past the drawing to show a node whole (7)
    const HINT_MS = 1200;        // how long the wheel's hint stays (8)
    const WHOLE_SHARE = 0.85;    // (7) the least zoom, as a share of the readable one, at which a drawing opens whole
    const ZOOM_TRIES = [0, 0.01, -0.01, 0.02, -0.02, 0.03, -0.03];  // (7) shares of the readable zoom, nearest first
    const PANEL_SHARE = 0.5;     // (10) the least zoom, as a share of the readable one, that shows a node clicked and
                                 // its neighbours beside the opened info panel, with boards on (a board reads
                                 // where its label is too small to draw; without boards the zoom stays readable)
    const NOTCH = 1.15;          // the zoom of one notch of a mouse wheel, in or out (8)
    const PANEL_FONT = 12;       // px: the least size of the info panel's text (5)
    const OVERLAYS = ["infopanel", "nodeActions", "toolbar", "viewbar"];  // the component's, over the canvas
    const CONFIG = window.__ggCanvas || { highlight: "#008b8b", large: 400, readable: 0.6, leanMark: ".gg-lean",
                                          minLabel: 7, comfortLabel: 10, labelFont: 12, moveFont: 12, minBoard: 18,
                                          boardSize: 64, panelShare: 0.25 };
    const NEUTRAL = [
        { selector: "node:selected, node.highlight",
          style: { "outline-color": CONFIG.highlight, "text-background-color": CONFIG.highlight } },
        { selector: "edge:selected, edge.highlight",
          style: { "line-color": CONFIG.highlight, "target-arrow-color": CONFIG.highlight,
                   "text-background-color": CONFIG.highlight } },
        // (12) a move's name over a node's board or label is not drawn, until the move or one of its ends is
        // selected (the component highlights its moves) or under the pointer
        { selector: "edge.gg-tucked", style: { "text-opacity": 0, "text-background-opacity": 0 } },
        { selector: "edge.gg-tucked.gg-shown, edge.gg-tucked.gg-hover",
          style: { "text-opacity": 1, "text-background-opacity": 0.85 } },
        // (12) a move's name under an overlay or cut by the canvas's edge, whatever else shows it (coverNames)
        { selector: "edge.gg-covered", style: { "text-opacity": 0, "text-background-opacity": 0 } },
        // (15) what a cluster's opening shown ahead takes off (the cluster, its bundled moves), until the answer
        { selector: ".gg-gone", style: { display: "none" } },
        // (18) a board too small to be read: the node's shape in its value colour
        { selector: "node.gg-glyph", style: { "background-image": "none" } },
        // (11) a move into a node whose label is hidden ends at the node, not at the hidden label's border (arrowEnds)
        { selector: "edge.gg-to-node", style: { "target-endpoint": "outside-to-node" } },
        // (11) last, so that no rule that names or highlights an element draws its speck of a label
        { selector: ".gg-speck", style: { "text-opacity": 0, "text-background-opacity": 0 } },
    ];
    const TUCK = NEUTRAL.filter(rule => rule.selector.includes("gg-tucked"));

    function overlayRect(doc, id) {
        const el = doc.getElementById(id);
        if (!el) return null;
        const style = doc.defaultView.getComputedStyle(el);
        if (style.display === "none" || style.visibility === "hidden") return null;
        const r = el.getBoundingClientRect();
        return r.width > 1 && r.height > 1 ? r : null;
    }

    // The part of the canvas (rendered px, relative to #cy) that no overlay covers: the largest
    // rectangle found by cutting each overlay away from the side that loses the least (the info
    // panel, full height, from the left; a short bar in a corner from the top or its side).
    // `overlays`: the ids of the overlays to keep clear of (all of them unless given).
    function clearArea(cy, overlays) {
        const doc = cy.container().ownerDocument;
        const box = cy.container().getBoundingClientRect();
        let area = { x1: 0, y1: 0, x2: box.width, y2: box.height };
        (overlays || OVERLAYS).forEach(id => {
            const r = overlayRect(doc, id);
            if (!r) return;
            const o = { x1: r.left - box.left - MARGIN, y1: r.top - box.top - MARGIN,
                        x2: r.right - box.left + MARGIN, y2: r.bottom - box.top + MARGIN };
            if (o.x2 <= area.x1 || o.x1 >= area.x2 || o.y2 <= area.y1 || o.y1 >= area.y2) return;  // clear already
            const cuts = [{ ...area, x1: o.x2 }, { ...area, y1: o.y2 }, { ...area, x2: o.x1 }, { ...area, y2: o.y1 }];
            const size = a => Math.max(0, a.x2 - a.x1) * Math.max(0, a.y2 - a.y1);
            area = cuts.reduce((best, a) => size(a) > size(best) ? a : best);
        });
        area = { x1: area.x1 + MARGIN, y1: area.y1 + MARGIN, x2: area.x2 - MARGIN, y2: area.y2 - MARGIN };
        if (area.x2 - area.x1 < 80 || area.y2 - area.y1 < 80) return { x1: 0, y1: 0, x2: box.width, y2: box.height };
        return area;
    }

    // An object of the canvas frame's own realm: this script runs in the page, and Cytoscape.js takes a
    // viewport's `pan` only if it is a plain Object of its own window (constructor === Object); a pan made
    // here was silently dropped, so a refit changed the zoom but left the view where the user had panned.
    function local(cy, value) {
        return cy.container().ownerDocument.defaultView.JSON.parse(JSON.stringify(value));
    }

    // The whole drawing's bounding box, computed once for the handlers of one task (a layout's end runs
    // zoomFloor and readableView, which asked for it three times): until the first frame after new elements
    // are drawn, Cytoscape.js computes every move's ends again for each bounding box asked for (a third of a
    // second each for 7,000 moves). Forgotten at the end of the task, and at once when the drawing changes.
    function drawingBox(cy) {
        if (!cy.__ggBox) {
            cy.__ggBox = cy.elements().boundingBox();
            Promise.resolve().then(() => { cy.__ggBox = null; });
        }
        return cy.__ggBox;
    }

    function collection(cy, eles) {
        if (!eles) return cy.elements();
        return typeof eles === "string" ? cy.$(eles) : eles;
    }

    // The viewport that fits `eles` into the clear area (what Cytoscape's getFitViewport does for the whole canvas).
    // Called as Cytoscape calls it: (eles or selector or bounding box, padding) or (padding).
    function clearFitViewport(cy, eles, padding, area) {
        if (typeof eles === "number" && padding === undefined) { padding = eles; eles = undefined; }
        let bb;
        if (eles && typeof eles === "object" && typeof eles.boundingBox !== "function" && "x1" in eles) {
            bb = { x1: eles.x1, y1: eles.y1, w: (eles.x2 !== undefined ? eles.x2 - eles.x1 : eles.w),
                   h: (eles.y2 !== undefined ? eles.y2 - eles.y1 : eles.h) };
        } else {
            const whole = eles === undefined;
            eles = collection(cy, eles);
            if (eles.length === 0) return undefined;
            bb = whole ? drawingBox(cy) : eles.boundingBox();
        }
        area = area || clearArea(cy);
        const pad = Math.max(0, +padding || 0);
        const w = area.x2 - area.x1 - 2 * pad, h = area.y2 - area.y1 - 2 * pad;
        if (!(w > 0 && h > 0) || !isFinite(bb.w) || !isFinite(bb.h)) return undefined;
        let zoom = Math.min(w / Math.max(bb.w, 1), h / Math.max(bb.h, 1));
        if (zoom < cy.minZoom()) cy.minZoom(Math.max(zoom, 1e-3));  // a fit always shows what it fits (8)
        zoom = Math.min(cy.maxZoom(), Math.max(cy.minZoom(), zoom));
        const cx = (area.x1 + area.x2) / 2, cyy = (area.y1 + area.y2) / 2;
        return { zoom, pan: { x: cx - zoom * (bb.x1 + bb.w / 2), y: cyy - zoom * (bb.y1 + bb.h / 2) } };
    }

    // The least change of view that puts the first of `tiers` (node collections, the most wanted first) that
    // fits wholly inside the clear area: the zoom is kept, or lowered as far as that tier needs but never below
    // the readable zoom (CONFIG.readable, or the zoom of now if it is lower already); never raised. A tier that
    // needs a lower zoom is passed over for the next (the last one is shown at that floor, as much as fits).
    // A tier given as [nodes, share] may go down to that share of the readable zoom: the node and its neighbours
    // beside the opened info panel, which in a 940 px window leaves a canvas of 474 px 180 px free.
    // Zooming out to keep everything in sight clear of the opened info panel took an expansion in a 940 px window
    // from 0.6 to 0.3, where every label is under CONFIG.minLabel and hidden (issue 18).
    // Each tier is tried in the free area as AREAS makes it (the canvas less the panel first), and taken there only
    // if none of its nodes then lies under one of the overlays (a node of the tier under the toolbar, say).
    // `lift` (an expansion's, expansionLift): a zoom the view may be raised to, the readable one, where the view is under it:
    // the zoom of now is then no ceiling.
    function reveal(cy, tiers, lift) {
        const now = cy.zoom(), top = Math.max(now, lift || 0);
        const readable = Math.min(top, +CONFIG.readable || top);
        // (a tier given as [nodes, share, least]: not below `least`, a zoom of its own, or the zoom of now if lower)
        const shown = tiers.map(t => Array.isArray(t) ? t : [t, 1])
            .map(([eles, share, least]) => [eles.filter(n => n.inside()),
                                            least > 0 ? Math.max(cy.minZoom(), Math.min(top, least))
                                                      : Math.max(cy.minZoom(), readable * share), least > 0])
            .filter(([eles]) => eles.length > 0);
        if (shown.length === 0) return;
        const pan = cy.pan();
        const mx = cy.width() / 2, my = cy.height() / 2;
        const shift = (lo, hi, min, max) => lo < min ? Math.min(min - lo, max - hi) : hi > max ? Math.max(max - hi, min - lo) : 0;
        // the view that shows `eles` at `zoom` in `area`: the view's centre kept where it was as the zoom changes,
        // then shifted just enough
        const viewOf = (eles, zoom, area) => {
            const bb = eles.boundingBox({ includeLabels: true, includeOverlays: false });
            let px = mx - (mx - pan.x) * zoom / now, py = my - (my - pan.y) * zoom / now;
            px += shift(bb.x1 * zoom + px, bb.x2 * zoom + px, area.x1, area.x2);
            py += shift(bb.y1 * zoom + py, bb.y2 * zoom + py, area.y1, area.y2);
            return { zoom, pan: { x: px, y: py } };
        };
        let view = null, chosen = shown.length - 1;
        for (const [i, [tier, floor]] of shown.entries()) {
            chosen = i;
            const bb = tier.boundingBox({ includeLabels: true, includeOverlays: false });
            for (const ids of AREAS) {
                const area = clearArea(cy, ids);
                const fit = Math.min((area.x2 - area.x1) / Math.max(bb.w, 1), (area.y2 - area.y1) / Math.max(bb.h, 1));
                if (fit < floor - 1e-9) continue;
                const v = viewOf(tier, Math.min(top, fit), area);
                if (ids === OVERLAYS || !underOverlays(cy, v, tier)) { view = v; break; }
            }
            // The first tier (what was in sight) does not fit readably, a later one at the full floor does: the window
            // at that floor that holds it is filled with the drawing round it, every node in it whole and none under
            // an overlay or cut by the canvas's edge (fillViewport, as the default view, 7), rather than the least
            // shift that left the nodes beside the tier where they were, under the opened panel (issue 35: at
            // 1000 px, 1 to 4 nodes under the panel after one expansion).
            if (view && i > 0 && shown[i][1] >= readable - 1e-9 && cy.nodes().length < CONFIG.large) {
                const filled = clearViewport(cy, area => fillViewport(cy, area, 0, floor, null, tier));
                if (filled && filled.zoom <= top + 1e-9) view = filled;
            }
            if (view) break;
        }
        if (!view) {
            const [eles, zoom] = shown[shown.length - 1];
            view = viewOf(eles, zoom, clearArea(cy));
        }
        // The view chosen keeps the tier clear of the overlays, not the nodes beside it: those are looked at too, and
        // where one would lie under an overlay or be cut by the canvas's edge the view is made again so that none does
        // (clearOf). Issue 35: at 1000 px, Dodgem 3x3 after three expansions had 2 nodes under the opened info panel,
        // dobutsu:small 1 to 4.
        // (a tier kept at its own zoom, comfortFirst's, is not lowered past the least of those after it)
        const after = shown.slice(chosen), own = after[0][2] ? after.filter(t => t[2]) : after;
        if (cy.nodes().length < CONFIG.large && hiding(cy, view) > 0)
            view = clearOf(cy, view, after.map(([eles]) => eles), Math.min(...own.map(([, floor]) => floor)));
        // A view at the comfortable zoom that still leaves a node under an overlay (the opened panel: at 1000 px a band
        // wider than the free area had two nodes under it) gives way to reveal's own tiers: the panel never hides a node.
        if (after[0][2] && cy.nodes().length < CONFIG.large && hiding(cy, view) > 0) {
            const plain = tiers.filter(t => !(Array.isArray(t) && t[2] > 0));
            if (plain.length < tiers.length) { reveal(cy, plain, lift); return; }
        }
        const zoom = view.zoom, px = view.pan.x, py = view.pan.y;
        if (Math.abs(zoom - now) < 1e-6 && Math.abs(px - pan.x) < 0.5 && Math.abs(py - pan.y) < 0.5) return;
        cy.stop();  // a glide of the view still going (an expansion's, a tap's) ends where it is
        cy.animate(local(cy, { zoom: zoom, pan: { x: px, y: py } }), local(cy, { duration: GLIDE_MS }));
    }

    // (3, 10) The zoom at which the nodes' labels are CONFIG.comfortLabel px on screen: an expansion, and the info panel's
    // opening, keep the view at it (or at the zoom of now, if lower) where they can. Zooming out to the readable zoom
    // (CONFIG.readable, labels 7.2 px) to keep all that was in sight beside the panel left every caption 5 to 6 px tall
    // after three expansions at 1000 px (issue 35).
    function comfortZoom() {
        return (+CONFIG.comfortLabel || 0) / (+CONFIG.labelFont || 12);
    }

    // reveal's tiers with, before them, each of `wide` (what was in sight, the node and its neighbours...) at the
    // comfortable zoom, then `centre` with as many of `around` (what an expansion brought, or the neighbours) as fit the
    // clear area with it at that zoom, the nearest to it first: what was added is shown at a readable size, in part if it
    // must be, rather than everything shrunk. The view keeps every node shown whole or not at all (reveal, clearOf).
    // The focus (the page's position, node[_focus]) in sight before (in `wide`'s first, what was in sight) is held in
    // all of those tiers, and then in each of `rest`, with, before `rest`'s last, `centre` and the focus and as many of
    // `around` as fit at the readable zoom: an expansion zooms out, down to the readable zoom, rather than push the focus
    // out of sight (issue 35: the comfortable zoom showed the node expanded and the nearest new nodes, and after three
    // expansions of tic-tac-toe, Chopsticks or Dodgem 3x3 the focus's row was above the canvas, at 1440 and 1000 px).
    // Only where even the focus and `centre` do not fit at the readable zoom do the tiers without the focus follow.
    const WHOLE_BOX = { includeNodes: true, includeEdges: false, includeLabels: true, includeOverlays: false };
    function comfortFirst(cy, wide, centre, around, rest, lift) {
        const least = comfortZoom();
        const focus = cy.nodes("[_focus]").filter(n => n.inside() && !n.hasClass("gg-gone"));
        const held = focus.length && centre.length && wide.length && wide[0].has(focus) && !centre.has(focus)
            ? focus : cy.collection();
        const also = t => Array.isArray(t) ? [t[0].union(held), ...t.slice(1)] : t.union(held);
        const readable = +CONFIG.readable || cy.zoom();
        const last = rest[rest.length - 1];
        const focused = held.length ? rest.slice(0, -1).map(also)
            .concat([holding(cy, centre, around, readable, held, lift), also(last)]) : [];
        // (with boards on, a board reads where its label is too small to: reveal's tiers as they were, issue 18)
        if (!(least > 0) || cy.nodes().length >= CONFIG.large || !centre.length || boardsOn(cy))
            return focused.concat(rest);
        // (the first of `wide`, what was in sight with what was added, is shown whole down to WHOLE_SHARE of the
        // comfortable zoom, labels 8.5 px, rather than in part at it: issue 35, tic-tac-toe at 1400 px, the held tiers at
        // the comfortable zoom 0.83 left a row of 7 nodes above the canvas where the whole fitted at 0.74)
        const at = (t, i) => [t, 1, i === 0 ? least * WHOLE_SHARE : least];
        const comfort = wide.map(at).concat([[holding(cy, centre, around, least, null, lift), 1, least]]);
        if (!held.length) return comfort.concat(rest);
        return wide.map((t, i) => at(t.union(held), i))
            .concat([[holding(cy, centre, around, least, held, lift), 1, least]], focused, comfort, rest);
    }

    // `centre` (and `also`) with as many of `around` as fit the clear area with it at `zoom` (at most the zoom of now, or
    // `lift` if higher: reveal's), the nearest to `centre`'s nodes' middle first.
    function holding(cy, centre, around, zoom, also, lift) {
        zoom = Math.min(Math.max(cy.zoom(), lift || 0), zoom);
        const area = clearArea(cy);
        const w = (area.x2 - area.x1) / zoom, h = (area.y2 - area.y1) / zoom;
        const c = centre.boundingBox(NODE_BODY), cx = (c.x1 + c.x2) / 2, cyy = (c.y1 + c.y2) / 2;
        const far = n => Math.hypot(n.position("x") - cx, n.position("y") - cyy);
        let held = also ? centre.union(also) : centre;
        around.not(held).filter(n => n.inside()).sort((a, b) => far(a) - far(b)).forEach(n => {
            const more = held.union(n), b = more.boundingBox(WHOLE_BOX);
            if (b.w <= w && b.h <= h) held = more;
        });
        return held;
    }

    // How many nodes (drawn, with their labels) `view` would show in part under one of the component's overlays (MARGIN
    // included) or cut by the canvas's edge: a node is shown whole, clear of the overlays, or not at all.
    function hiding(cy, view) {
        const doc = cy.container().ownerDocument, box = cy.container().getBoundingClientRect();
        const rects = OVERLAYS.map(id => overlayRect(doc, id)).filter(Boolean)
            .map(r => ({ x1: r.left - box.left - MARGIN, y1: r.top - box.top - MARGIN,
                         x2: r.right - box.left + MARGIN, y2: r.bottom - box.top + MARGIN }));
        let count = 0;
        cy.nodes().forEach(n => {
            if (!n.visible()) return;
            const b = n.boundingBox({ includeLabels: true, includeOverlays: false });
            const x1 = b.x1 * view.zoom + view.pan.x, x2 = b.x2 * view.zoom + view.pan.x;
            const y1 = b.y1 * view.zoom + view.pan.y, y2 = b.y2 * view.zoom + view.pan.y;
            if (x2 <= 0 || y2 <= 0 || x1 >= box.width || y1 >= box.height) return;  // wholly out of sight
            if (x1 < 0 || y1 < 0 || x2 > box.width || y2 > box.height ||
                rects.some(r => x1 < r.x2 && r.x1 < x2 && y1 < r.y2 && r.y1 < y2)) count++;
        });
        return count;
    }

    // A view at `view`'s zoom under which no node is hidden (hiding) and what `view` was made to show (`keep`: reveal's
    // tier, what was in sight or the node and its neighbours) stays whole and clear: the window at that zoom whose
    // edges fall between nodes (fillAt, as the default view's, 7), held round `keep`, in the first free area (AREAS)
    // where no node is under an overlay, or `view` itself, then panned by the least shifts that take each node still
    // hidden out from under what hides it (shiftClear); else the whole drawing centred in the free area if it fits
    // there at that zoom; else, of the views that keep `keep`, the one that hides the fewest, if fewer than
    // `view`. `tiers`: reveal's, from the one `view` shows, then the later ones (with boards on, those that still hold
    // the node and its neighbours beside the panel, issue 18; where `view`'s holds the focus, those that hold it too). Never a lower zoom than `view`'s, but where no view at it
    // hides no node, a few zooms a little lower (LOWER, down to `floor`, the least reveal allowed those tiers): the nodes'
    // columns and the panel's edge are a fixed width apart, and one zoom may leave no gap for the edge to fall in where
    // a slightly lower one does (issue 35: with boards on, the view still hid one node or two under the opened panel).
    const LOWER = [0.97, 0.94, 0.91, 0.88, 0.85, 0.8];
    function clearOf(cy, view, tiers, floor) {
        let best = view, least = hiding(cy, view);
        // the tiers after it are tried too (the node clicked or expanded is the last), with boards on only those that
        // still hold the node and its neighbours (a board reads at half the readable zoom, where reveal showed them)
        const node = tiers[tiers.length - 1], core = node.closedNeighborhood().nodes().filter(n => n.inside());
        // (and, where `view`'s tier holds the focus, only those that hold it too: comfortFirst's)
        const focus = tiers[0].filter("[_focus]");
        const kept = tiers[0].boundingBox({ includeLabels: true, includeOverlays: false });
        const mid = { x: kept.x1 + kept.w / 2, y: kept.y1 + kept.h / 2 };
        const zooms = [view.zoom].concat(LOWER.map(f => view.zoom * f).filter(z => z >= (floor || view.zoom) - 1e-9));
        for (const zoom of zooms) {
            // `view` at this zoom, the tier's middle kept where it was on the screen
            const scaled = { zoom, pan: { x: view.pan.x + (view.zoom - zoom) * mid.x,
                                          y: view.pan.y + (view.zoom - zoom) * mid.y } };
            for (const [i, keep] of tiers.entries()) {
                if (i > 0 && boardsOn(cy) && !core.every(n => keep.has(n))) continue;
                if (i > 0 && !focus.every(n => keep.has(n))) continue;
                const filled = clearViewport(cy, area => fillAt(cy, area, 0, zoom, keep));
                for (const start of [filled, scaled]) {
                    if (!start) continue;
                    const [v, n, held] = shiftClear(cy, { zoom: start.zoom, pan: start.pan }, keep);
                    if (!held) continue;
                    if (n === 0) return v;
                    if (i === 0 && zoom === view.zoom && n < least) { best = v; least = n; }
                }
            }
        }
        // the whole drawing fits the free area at this zoom: centred there
        const area = clearArea(cy), fit = clearFitViewport(cy, undefined, 0, area);
        if (fit && fit.zoom >= view.zoom - 1e-9) {
            const bb = drawingBox(cy);
            const centred = { zoom: view.zoom, pan: { x: (area.x1 + area.x2) / 2 - view.zoom * (bb.x1 + bb.w / 2),
                                                      y: (area.y1 + area.y2) / 2 - view.zoom * (bb.y1 + bb.h / 2) } };
            if (hiding(cy, centred) === 0) return centred;
        }
        return best;
    }

    // `view` panned, a few times over, by the shift that leaves the fewest nodes hidden (hiding) while `keep` stays whole
    // and clear: each shift tried takes one node hidden wholly past one side of what hides it (an overlay, MARGIN
    // included), or for a node cut by the canvas's edge wholly in or wholly out. [view, how many nodes it hides,
    // whether `keep` is whole and clear there].
    // O(rounds x hidden x V).
    // `partial`: a node wholly under an overlay counts as out of sight, as one past the canvas's edge (showFound).
    function shiftClear(cy, view, keep, partial) {
        const doc = cy.container().ownerDocument, box = cy.container().getBoundingClientRect();
        const W = box.width, H = box.height;
        const rects = OVERLAYS.map(id => overlayRect(doc, id)).filter(Boolean)
            .map(r => ({ x1: r.left - box.left - MARGIN, y1: r.top - box.top - MARGIN,
                         x2: r.right - box.left + MARGIN, y2: r.bottom - box.top + MARGIN }));
        const boxes = cy.nodes().filter(n => n.visible()).map(n => n.boundingBox({ includeLabels: true, includeOverlays: false }));
        const kept = keep.boundingBox({ includeLabels: true, includeOverlays: false });
        const screen = (b, v) => ({ x1: b.x1 * v.zoom + v.pan.x, x2: b.x2 * v.zoom + v.pan.x,
                                    y1: b.y1 * v.zoom + v.pan.y, y2: b.y2 * v.zoom + v.pan.y });
        const meets = (s, r) => s.x1 < r.x2 && r.x1 < s.x2 && s.y1 < r.y2 && r.y1 < s.y2;
        // (wholly under the overlay itself: `rects` hold MARGIN round it)
        const within = (s, r) => s.x1 >= r.x1 + MARGIN && s.x2 <= r.x2 - MARGIN && s.y1 >= r.y1 + MARGIN && s.y2 <= r.y2 - MARGIN;
        const hid = s => !(s.x2 <= 0 || s.y2 <= 0 || s.x1 >= W || s.y1 >= H) &&
            (s.x1 < 0 || s.y1 < 0 || s.x2 > W || s.y2 > H || rects.some(r => meets(s, r) && !(partial && within(s, r))));
        const count = v => boxes.reduce((n, b) => n + (hid(screen(b, v)) ? 1 : 0), 0);
        const holds = v => { const s = screen(kept, v);
            return s.x1 >= 0 && s.y1 >= 0 && s.x2 <= W && s.y2 <= H && !rects.some(r => meets(s, r)); };
        // (of the shifts that hide as few, the one that leaves the most nodes whole in sight, then the least: clearing a
        // column from the opened panel's edge by a shift up pushed a whole row above the canvas where one of 40 px to the
        // side kept it, issue 35: tic-tac-toe after an expansion at 1400 px, 7 nodes out of sight)
        const clear = s => s.x1 >= 0 && s.y1 >= 0 && s.x2 <= W && s.y2 <= H && !rects.some(r => meets(s, r));
        const seen = v => boxes.reduce((n, b) => n + (clear(screen(b, v)) ? 1 : 0), 0);
        let cur = view, least = count(view);
        for (let round = 0; round < 8 && least > 0; round++) {
            const shifts = [];
            boxes.forEach(b => {
                const s = screen(b, cur);
                if (!hid(s)) return;
                rects.filter(r => meets(s, r)).forEach(r => shifts.push([r.x2 - s.x1 + 1, 0], [r.x1 - s.x2 - 1, 0],
                                                                        [0, r.y2 - s.y1 + 1], [0, r.y1 - s.y2 - 1]));
                if (partial) rects.filter(r => meets(s, r)).forEach(r => shifts.push([r.x2 - MARGIN - s.x2 - 1, 0],
                                                                                     [r.x1 + MARGIN - s.x1 + 1, 0]));
                if (s.x1 < 0) shifts.push([-s.x1 + 1, 0], [-s.x2 - 1, 0]);
                if (s.x2 > W) shifts.push([W - s.x2 - 1, 0], [W - s.x1 + 1, 0]);
                if (s.y1 < 0) shifts.push([0, -s.y1 + 1], [0, -s.y2 - 1]);
                if (s.y2 > H) shifts.push([0, H - s.y2 - 1], [0, H - s.y1 + 1]);
            });
            let next = null, fewest = least, far = Infinity, most = -1;
            shifts.forEach(([dx, dy]) => {
                const v = { zoom: cur.zoom, pan: { x: cur.pan.x + dx, y: cur.pan.y + dy } };
                if (!holds(v)) return;
                const n = count(v), d = Math.abs(dx) + Math.abs(dy), m = n <= fewest ? seen(v) : -1;
                if (n < fewest || (n === fewest && next && (m > most || (m === most && d < far)))) {
                    next = v; fewest = n; far = d; most = m;
                }
            });
            if (!next) break;
            cur = next; least = fewest;
        }
        return [cur, least, holds(cur)];
    }

    // The canvas's default view (7): the whole drawing fitted into the clear area when that fit is readable
    // (zoom CONFIG.readable or more); else, at that zoom, the window of the clear area's size that holds the
    // focus (node[_focus]) and its neighbours where they fit, shifted into the drawing's box wherever the
    // box is larger than the window, so no band of the clear area is left empty beside a drawing that goes
    // on out of sight (centring on the focus alone showed 19 of a part's 30 nodes, 170 px empty on a side).
    // 14. What the canvas's search found (canvas/search.py, ringed by the sheet): its box in the middle of the
    // clear area, at the zoom of now if it fits there, else as low as it needs but not below the readable
    // zoom (or the zoom of now if that is lower already); never zoomed in.
    // `path` (a position added with its path from the focus: the path's nodes in order, the focus first, what was found
    // last): the found node with as much of its path as fits the clear area at a zoom whose labels are drawn
    // (labelZoom, or the zoom of now if lower), the nodes nearest it first. The found node alone, kept at the zoom of
    // now, left the path out of sight (issue 35: tic-tac-toe at k=1, a position four moves out).
    function showFound(cy, found, path) {
        if (!found.length) return;
        const area = clearArea(cy);
        const now = cy.zoom();
        const fitOf = b => Math.min((area.x2 - area.x1) / Math.max(b.w, 1), (area.y2 - area.y1) / Math.max(b.h, 1));
        let shown = found, least = Math.min(now, +CONFIG.readable || now);
        if (path && path.length > 1) {
            least = Math.min(now, labelZoom());
            const steps = path.not(found).toArray().reverse();  // the nearest to what was found first
            for (const n of steps) {
                const more = shown.union(n);
                if (fitOf(more.boundingBox({ includeLabels: true, includeOverlays: false })) < least - 1e-9) break;
                shown = more;
            }
        }
        const bb = shown.boundingBox({ includeLabels: true, includeOverlays: false });
        let view;
        if (shown.length > found.length) {
            // what was found in the middle, its path round it, at the zoom that fits them so, or if that one is under
            // `least`, at `least` (the labels still drawn), shifted as little as keeps the path in the clear area
            const f = found.boundingBox({ includeLabels: true, includeOverlays: false });
            const at = { x: f.x1 + f.w / 2, y: f.y1 + f.h / 2 };
            const reach = { w: 2 * Math.max(at.x - bb.x1, bb.x2 - at.x), h: 2 * Math.max(at.y - bb.y1, bb.y2 - at.y) };
            const zoom = Math.min(now, Math.max(fitOf(reach), least), fitOf(bb));
            const keepIn = (pan, lo, hi, min, max) => lo * zoom + pan < min ? min - lo * zoom
                : hi * zoom + pan > max ? max - hi * zoom : pan;
            view = { zoom, pan: { x: keepIn((area.x1 + area.x2) / 2 - zoom * at.x, bb.x1, bb.x2, area.x1, area.x2),
                                  y: keepIn((area.y1 + area.y2) / 2 - zoom * at.y, bb.y1, bb.y2, area.y1, area.y2) } };
        } else {
            const zoom = Math.min(now, Math.max(fitOf(bb), least));
            view = { zoom, pan: { x: (area.x1 + area.x2) / 2 - zoom * (bb.x1 + bb.w / 2),
                                  y: (area.y1 + area.y2) / 2 - zoom * (bb.y1 + bb.h / 2) } };
        }
        // What was found is clear of the overlays, the nodes beside it need not be: where one would lie in part under the
        // opened info panel (or a bar, or be cut by the canvas's edge), the view is panned by the least shifts that take
        // each such node wholly out from under it or wholly under it, what was found kept whole and clear (shiftClear).
        // Issue 35: after a search, at 1000 and 1440 px, nodes sat half under the panel. Once per search,
        // O(rounds x hidden x V); nothing per frame.
        // (a node wholly under the panel is out of sight, as one past the canvas's edge: a search's match in a band wider
        // than the free area leaves some there)
        if (cy.nodes().length < CONFIG.large) {
            const [clear, , held] = shiftClear(cy, view, shown, true);
            if (held) view = clear;
            else if (shown.length > found.length) {  // (the path kept whole nowhere: what was found, at least)
                const [alone, , kept] = shiftClear(cy, view, found, true);
                if (kept) view = alone;
            }
        }
        cy.stop();
        cy.animate(local(cy, { zoom: view.zoom, pan: view.pan }), local(cy, { duration: GLIDE_MS }));
    }

    // The free area is the canvas less the info panel, its node action bar, the toolbar (top right) and the zoom
    // buttons (bottom right): not a rectangle. The bars are short, in corners: cut away from a side, each leaves a
    // band of the canvas empty all along it (the toolbar's 44 px across the top: a part of Dodgem 4x4 opened with a
    // 50 px empty strip over a drawing cut at the bottom). So a view is first made for the canvas less the panel
    // alone, then less the panel and the bars in the right-hand corners, then less the panel and its own bar, each kept
    // if no node (its disc or board and label) lies under one of the overlays (underOverlays); else the view of the
    // rectangle clear of them all.
    const AREAS = [["infopanel"], ["infopanel", "toolbar", "viewbar"], ["infopanel", "nodeActions"], OVERLAYS];
    function clearViewport(cy, make) {
        let view;
        for (const ids of AREAS) {
            view = make(clearArea(cy, ids));
            if (!view || !underOverlays(cy, view)) return view;
        }
        return view;
    }

    // Whether a node (of `nodes`, else any) would lie, in part, under one of the component's overlays (MARGIN
    // included) at `view`.
    function underOverlays(cy, view, nodes) {
        const doc = cy.container().ownerDocument, box = cy.container().getBoundingClientRect();
        const rects = OVERLAYS.map(id => overlayRect(doc, id)).filter(Boolean);
        if (!rects.length) return false;
        return (nodes || cy.nodes()).some(n => {
            const b = n.boundingBox({ includeLabels: true, includeOverlays: false });
            const x1 = box.left + b.x1 * view.zoom + view.pan.x, x2 = box.left + b.x2 * view.zoom + view.pan.x;
            const y1 = box.top + b.y1 * view.zoom + view.pan.y, y2 = box.top + b.y2 * view.zoom + view.pan.y;
            return rects.some(r => x1 < r.right + MARGIN && r.left - MARGIN < x2 && y1 < r.bottom + MARGIN && r.top - MARGIN < y2);
        });
    }

    // The Fit button's view: the whole drawing in the free area. Its padding (the component's 20 px a side) is given up
    // where the drawing then fits at a zoom whose labels are drawn (11) and not with it: at 1000 px, tic-tac-toe's
    // neighbourhood and Pong Hau K'i whole were fitted a little under that zoom and every label was hidden (issue 35).
    // Once per click.
    function buttonFit(cy, eles, padding) {
        const fit = clearViewport(cy, area => clearFitViewport(cy, eles, padding, area));
        if (!fit || fit.zoom >= labelZoom()) return fit;
        const tight = clearViewport(cy, area => clearFitViewport(cy, eles, 0, area));
        return tight && tight.zoom >= labelZoom() ? tight : fit;
    }

    function readableViewport(cy, padding) {
        const fit = clearViewport(cy, area => clearFitViewport(cy, undefined, padding, area));
        if (!fit) return fit;
        const least = Math.min(cy.maxZoom(), +CONFIG.readable || 0);
        if (fit.zoom >= least) return fit;
        // A drawing only a little too large for the readable zoom is shown whole, its padding given up, at a zoom down to
        // WHOLE_SHARE of it: the labels under CONFIG.minLabel there are drawn at that size where they are clear (21). The
        // window at the readable zoom left nodes out of sight (issue 35: Dodgem 3x3 at k=2 in a 1000 px window, 3 of its
        // 13 nodes past the left edge, where the whole fits at 0.54).
        if (cy.nodes().length < CONFIG.large) {
            const tight = clearViewport(cy, area => clearFitViewport(cy, undefined, 0, area));
            if (tight && tight.zoom >= least * WHOLE_SHARE) return tight;
        }
        // A position the search found (ringed, `_found`; a reopened link's last searched one too, canvas/panel.py
        // _scene_into) stays in sight: the window holds it and the focus where both fit at this zoom, else it alone
        // (a link copied after a search reopened round the focus, the searched position above the canvas: issue 35).
        const found = cy.nodes("[_found = 1]");
        const anchor = area => {
            if (!found.length) return undefined;
            const both = found.union(cy.nodes("[_focus]"));
            const b = both.boundingBox({ includeLabels: true, includeOverlays: false });
            return b.w * least <= area.x2 - area.x1 && b.h * least <= area.y2 - area.y1 ? both : found;
        };
        return clearViewport(cy, area => fillViewport(cy, area, padding, least, fit, anchor(area)));
    }

    // The window of `area`'s size at zoom `least` over a drawing too large to fit (readableViewport).
    // Tried at zooms a little either side of `least` (ZOOM_TRIES, and never so low that a label falls under
    // CONFIG.minLabel), nearest first, when no window at it leaves every node whole: a window's two edges are a
    // fixed width apart, and the nodes' columns may leave them no gap to fall in at one zoom but one at the next
    // (Dodgem 4x4 with boards, layered, on a 934 px canvas cut a node at the left edge at 0.6 and none at 0.606).
    // `anchor` (reveal): the nodes the window holds instead of the focus and its neighbours, at `least` only.
    // The least zoom at which the nodes' labels are drawn (11: CONFIG.minLabel px on screen), a hair above it.
    function labelZoom() {
        return (+CONFIG.minLabel || 0) / (+CONFIG.labelFont || 12) * 1.005;
    }

    // (3) The zoom an expansion's view may be raised to: the readable one, where the view is under it now (a drawing
    // opened whole at WHOLE_SHARE of it, 7, or zoomed out); else 0. What the expansion added is shown at a zoom whose
    // captions are drawn, not at the zoom of now: the whole that view showed is gone once the drawing grows (issue 35:
    // dobutsu:small at 1000 px opened whole at 0.55, and its first expansion kept that zoom, its labels under
    // CONFIG.minLabel, most of them hidden). Not on a large canvas (it labels only its focus and the node selected).
    function expansionLift(cy) {
        const readable = Math.min(cy.maxZoom(), +CONFIG.readable || 0);
        return cy.nodes().length < CONFIG.large && cy.zoom() < readable - 1e-9 ? readable : 0;
    }

    function fillViewport(cy, area, padding, least, fit, anchor) {
        let best = null;
        const lowest = labelZoom();
        for (const t of ZOOM_TRIES) {
            const zoom = Math.min(cy.maxZoom(), least * (1 + t));
            if ((t < 0 && zoom < lowest) || (anchor && t !== 0)) continue;
            const view = fillAt(cy, area, padding, zoom, anchor);
            if (!best || view.cut < best.cut) best = view;
            if (best.cut === 0 || cy.nodes().length >= CONFIG.large) break;
        }
        // None whole: the whole drawing fitted (`fit`, nothing cut) if its labels are still drawn at its zoom, or
        // whatever its zoom if the browser placed the nodes (fcose: the force-directed layout, the console's
        // canvas). Random places leave the window's edges no gap to fall in: in a 940 px window, Chopsticks at k=2
        // had a label under the folded panel's strip and a node cut at the right edge at every readable zoom.
        // Zooming in (Ctrl + scroll) brings the labels back.
        if (best.cut > 0 && fit && (fit.zoom >= lowest || browserPlaced(cy))) return fit;
        return { zoom: best.zoom, pan: best.pan };
    }

    function boardsOn(cy) {
        return cy.nodes("[_image]").length > 0;
    }

    // Whether the browser placed the nodes (fcose): the last layout of the whole canvas was one, or the canvas has
    // no focus (the Cypher console's, whose first layout ran before this script hooked it).
    function browserPlaced(cy) {
        return cy.__ggLayout !== undefined ? cy.__ggLayout === "fcose" : cy.nodes("[_focus]").length === 0;
    }

    function fillAt(cy, area, padding, least, anchor) {
        const pad = Math.max(0, +padding || 0);
        const bb = drawingBox(cy);
        // The window (model px). The padding is kept only on an axis where the drawing fits: where it goes on
        // out of sight, the window spans the whole clear area, so its edge meets the panel's margin instead of
        // leaving a padding's band empty there (30 px beside the panel).
        const span = (full, size) => {
            const padded = Math.max(1, full - 2 * pad) / least;
            return size <= padded ? padded : Math.max(1, full) / least;
        };
        const w = span(area.x2 - area.x1, bb.w), h = span(area.y2 - area.y1, bb.h);
        const focus = anchor || cy.nodes("[_focus]");
        let c = { x: bb.x1 + bb.w / 2, y: bb.y1 + bb.h / 2 };
        if (anchor) {
            const a = anchor.boundingBox({ includeLabels: true, includeOverlays: false });
            c = { x: a.x1 + a.w / 2, y: a.y1 + a.h / 2 };
        } else if (focus.length) {
            const near = focus.closedNeighborhood().nodes().boundingBox();
            const f = focus.position();
            c = near.w <= w && near.h <= h ? { x: near.x1 + near.w / 2, y: near.y1 + near.h / 2 } : { x: f.x, y: f.y };
        }
        // into the drawing's box: a side larger than the window is filled, a smaller one centred
        const into = (at, lo, size, span) => size <= span ? lo + size / 2 : Math.min(Math.max(at, lo + span / 2), lo + size - span / 2);
        c = { x: into(c.x, bb.x1, bb.w, w), y: into(c.y, bb.y1, bb.h, h) };
        // A large canvas draws bare discs, no labels nor boards, and would pay O(nodes^2) here on every layout.
        if (cy.nodes().length < CONFIG.large) c = wholeNodes(cy, c, area, least, w, h, bb, focus);
        return { zoom: least, pan: { x: (area.x1 + area.x2) / 2 - least * c.x, y: (area.y1 + area.y2) / 2 - least * c.y },
                 cut: c.cut || 0 };
    }

    // The window's centre `c` moved, as little as it can, so that no node shows cut at the canvas's edges (uncut).
    function wholeNodes(cy, c, area, least, w, h, bb, focus) {
        const boxes = cy.nodes().map(n => n.boundingBox({ includeLabels: true, includeOverlays: false }));
        const keep = focus.length ? focus.boundingBox({ includeLabels: true, includeOverlays: false }) : null;
        const slack = BAND / least;  // model px of empty band allowed past the drawing's edge, for a node kept whole
        // What shows beyond the window on each side (model px): the canvas runs on past the clear area (under the
        // toolbar's corner, the margins), but on the left the info panel covers it.
        const doc = cy.container().ownerDocument, box = cy.container().getBoundingClientRect();
        // The folded panel is a thin strip a few px in from the canvas's edge: the drawing shows on both its sides,
        // so on the left a node must be clear of the whole band from the canvas's edge to the panel's right side
        // (a node across the panel's left side, or between it and the canvas's edge, showed in part: Dodgem 4x4
        // with boards at k=2 on a 934 px canvas, issue 18).
        const panel = overlayRect(doc, "infopanel");
        const shownLeft = panel ? Math.min(area.x1, Math.max(0, panel.right - box.left)) : 0;
        // A side where the clear area was cut back for a bar in its corner (the toolbar at the top, the zoom buttons
        // on the right) shows the drawing only in part between the area's edge and the canvas's: a node there must be
        // wholly out of that band too, or it lay under the bar (dobutsu:small at k=2: two nodes under the toolbar).
        const side = d => d > 2 * MARGIN + 1 ? [0, d / least] : [d / least];
        const beyond = { left: [(area.x1 - shownLeft) / least, area.x1 / least], right: side(box.width - area.x2),
                         top: side(area.y1), bottom: side(box.height - area.y2) };
        c = { ...c, cut: 0 };
        if (bb.w > w) [c.x, c.cut] = uncut(c.x, w, bb.x1 - slack, bb.x2 + slack, boxes.map(b => [b.x1, b.x2]),
                                           keep && [keep.x1, keep.x2], beyond.left, beyond.right);
        if (bb.h > h) {
            const [y, cut] = uncut(c.y, h, bb.y1 - slack, bb.y2 + slack, boxes.map(b => [b.y1, b.y2]),
                                   keep && [keep.y1, keep.y2], beyond.top, beyond.bottom);
            c.y = y; c.cut += cut;
        }
        return c;
    }

    // The centre, along one axis, of a window `span` wide whose shown part's edges (the window's, pushed out by
    // `before` and `after`: the lines where something stops showing the drawing; two distances on a side are the
    // band between them, where the drawing shows only in part, which a node must be wholly out of) cut no node's box
    // (`boxes`: [lo, hi] each, with its label): the nearest to `at` that keeps the window within [lo, hi] (the
    // drawing and a band) and `keep` (the focus) inside it; when there is none (nodes packed closer than the
    // window's edges can fall between), the one that cuts the fewest. Candidates put one of those edges just past
    // a node's box, one side or the other. [centre, how many nodes its window cuts]. O(nodes^2).
    function uncut(at, span, lo, hi, boxes, keep, before, after) {
        const half = span / 2, gap = 2;
        const bands = centre => [[centre - half - Math.max(...before), centre - half - Math.min(...before)],
                                 [centre + half + Math.min(...after), centre + half + Math.max(...after)]];
        const cuts = centre => { const [l, r] = bands(centre);
            return boxes.reduce((n, [a, b]) => n + (a < l[1] && l[0] < b || a < r[1] && r[0] < b ? 1 : 0), 0); };
        const fits = centre => centre - half >= lo - gap - 1e-6 && centre + half <= hi + gap + 1e-6 &&
            (!keep || (keep[0] >= centre - half && keep[1] <= centre + half));
        let best = at, least = cuts(at), far = 0;
        if (least === 0) return [at, 0];
        // none cut, the nearest; where every window cuts some (the edges' distance a multiple of no gap between
        // the nodes' columns), the fewest, so that what is cut is one node at an edge, not one at each
        boxes.forEach(([a, b]) => {
            const centres = before.flatMap(d => [a - gap + d + half, b + gap + d + half])
                .concat(after.flatMap(d => [a - gap - d - half, b + gap - d - half]));
            centres.forEach(centre => {
                if (!fits(centre)) return;
                const d = Math.abs(centre - at), n = cuts(centre);
                if (n < least || (n === least && d < far)) { best = centre; least = n; far = d; }
            });
        });
        return [best, least];
    }

    function readableView(cy, padding) {
        const view = readableViewport(cy, padding);
        if (view) cy.viewport(local(cy, view));
    }

    function inSight(cy, node) {
        const p = node.renderedPosition();
        return p.x >= 0 && p.y >= 0 && p.x <= cy.width() && p.y <= cy.height();
    }

    // Every style sheet the component sets, as Cytoscape.js gets it (4, 9): the highlight rules of ours after
    // the component's, and a large canvas's sheet (marked by CONFIG.leanMark) without the component's
    // default look before our rules.
    function wrapStyle(cy) {
        if (Object.prototype.hasOwnProperty.call(cy, "__ggStyle")) return;
        const setStyle = cy.style;  // Cytoscape's own, on its prototype
        cy.__ggStyle = false;       // true once a sheet went through here
        cy.style = function (sheet) {
            if (arguments.length === 0 || !Array.isArray(sheet)) return setStyle.apply(this, arguments);
            const text = JSON.stringify(sheet);
            if (cy.__ggStyle && text === cy.__ggSheetText) return cy;  // (17) already drawn with it
            cy.__ggSheet = sheet;
            cy.__ggSheetText = text;
            const mark = sheet.findIndex(rule => rule && rule.selector === CONFIG.leanMark);
            cy.__ggStyle = true;
            // (a large canvas draws no names but the selected node's: the rules of 12 would be matched against
            // every element for nothing)
            const done = setStyle.call(this, mark > 0 ? sheet.slice(mark).concat(NEUTRAL.filter(r => !TUCK.includes(r)))
                                                      : sheet.concat(NEUTRAL));
            if (cy.__ggRestyled) cy.__ggRestyled();
            return done;
        };
    }

    // The highlight in the neutral colour: our rules after the component's, in every style sheet it sets.
    function neutralHighlight(cy) {
        wrapStyle(cy);
        if (cy.__ggStyle) return;  // in at the instance's birth (9): the sheet set has them
        // The sheet already set: the rules go at its end, restyling only what is highlighted now (a
        // whole restyle of a large canvas would cost what drawing it costs; the rest is restyled
        // when its classes change, against the sheet with these rules).
        const sheet = cy.style();
        NEUTRAL.forEach(rule => sheet.selector(rule.selector).style(rule.style));
        cy.$(":selected, .highlight").updateStyle();
    }

    // (9) The style wrapper goes in when Cytoscape.js makes the instance, before the component sets its
    // elements and sheet and draws them: Cytoscape registers an instance on its container as
    // `container._cyreg.cy`, into the object it finds there, so one with a setter for `cy` is put there
    // first. The component makes the instance a tenth of a second after its frame has loaded; new frames are
    // watched from their creation and looked at every few ms until their #cy is there.
    function trapInstance(doc) {
        const box = doc && doc.getElementById("cy");
        if (!box || box.__ggTrap || box._cyreg) return !!box;
        box.__ggTrap = true;
        let instance;
        const reg = {};
        Object.defineProperty(reg, "cy", {
            configurable: true, enumerable: true, get: () => instance,
            set: value => { instance = value; if (value) wrapStyle(value); },
        });
        box._cyreg = reg;
        return true;
    }

    function tidyPanel(cy) {
        const doc = cy.container().ownerDocument;
        const panel = doc.getElementById("infopanel"), props = doc.getElementById("infopanelProps");
        const bar = doc.getElementById("nodeActions");
        if (!panel || !props) return;
        // a board's label has a line per row (canvas.board_label): the title grows to hold them
        const fit = doc.createElement("style");
        // The component sizes its text by the frame's width (1rem is 3 px + 1% of it, at least 8 px): in a 1000 px
        // window the panel's text was 8.4 px (issue 35). Its text is PANEL_FONT px at least; the panel keeps its width.
        fit.textContent = ".infopanel__name { height: auto; min-height: 2rem; padding: 0.2rem 0; " +
                          "font-family: 'DejaVu Sans Mono', Menlo, Consolas, monospace; line-height: 1.15; }" +
                          `.infopanel { font-size: max(${PANEL_FONT}px, 1rem); }` +
                          ".infopanel__key, .infopanel__val { line-height: 1.4em; overflow-wrap: anywhere; }" +
                          `.infopanel__action-btn { font-size: max(${PANEL_FONT - 1}px, 0.85rem); }` +
                          // at most a share of the canvas's width (the component's 17.5 rem took a third of it at 1000 px,
                          // issue 35); its resize handle still narrows it
                          `.infopanel[data-expanded="true"] { max-width: ${100 * (+CONFIG.panelShare || 1)}%; }`;
        doc.head.appendChild(fit);
        const hideId = () => props.querySelectorAll(".infopanel__prop").forEach(row => {
            const key = row.querySelector(".infopanel__key");
            if (key && key.textContent === "id") row.style.display = "none";
        });
        new MutationObserver(hideId).observe(props, { childList: true });
        hideId();
        if (!bar) return;
        const placeBar = () => {
            if (panel.getAttribute("data-expanded") !== "true") return;
            const margin = parseFloat(doc.defaultView.getComputedStyle(bar).marginLeft) || 0;
            bar.style.left = (panel.offsetLeft + panel.offsetWidth + margin) + "px";
        };
        panel.addEventListener("transitionend", placeBar);
        new MutationObserver(placeBar).observe(panel, { attributes: true, attributeFilter: ["data-expanded", "style"] });
    }

    // The component's own controls keep their tooltips but one: its zoom bar's recentre button is titled "Recenter Veiw"
    // (a typo in streamlit-cytoscape's page). Its frame is of our origin, so the title is set here; the component never
    // sets it again.
    const TITLES = { viewbarCenter: "Recenter view" };
    function retitle(cy) {
        const doc = cy.container().ownerDocument;
        Object.entries(TITLES).forEach(([id, title]) => {
            const el = doc.getElementById(id);
            if (el) el.title = title;
        });
    }

    // The least zoom (8): FLOOR times the zoom that fits the whole drawing into the whole canvas (the default
    // view's zoom is above it: the fit, or the readable zoom when the fit is less). Set again whenever the
    // drawing changes (additions, removals, a layout, a drag).
    function zoomFloor(cy) {
        const eles = cy.elements();
        if (eles.length === 0 || !(cy.width() > 0 && cy.height() > 0)) return;
        const bb = drawingBox(cy);
        const fit = Math.min(cy.width() / Math.max(bb.w, 1), cy.height() / Math.max(bb.h, 1));
        cy.minZoom(Math.max(1e-3, Math.min(FLOOR * fit, cy.maxZoom())));
    }

    // The wheel (8): the canvas zooms on it only with Ctrl/⌘ held or after a click on the canvas (until the
    // pointer leaves the frame); else the event is left alone and the page scrolls. Decided in the capture phase
    // of the frame's window, before Cytoscape's own listener on #cy, which never sees a wheel (its zoom is off):
    // it zoomed 4.7% a notch for the first four events and 2.8% after (it guesses the device from the deltas),
    // with Ctrl or without. Here one notch (a deltaY of 100 px, 3 lines, or more) is one step of NOTCH, the same
    // with Ctrl and without; a trackpad's pinch (Chromium sends it as Ctrl + wheel, deltaY = -100 ln(scale), a few
    // px an event) is followed as it is, scale for scale, since such small deltas are under the step's cap.
    function wheelZoom(e) {
        const px = e.deltaMode === 1 ? 33 : e.deltaMode === 2 ? 100 : 1;
        const cap = 100 * Math.log(NOTCH);
        return Math.exp(-Math.max(-cap, Math.min(cap, e.deltaY * px)) / 100);
    }

    function wheelGuard(cy) {
        const box = cy.container(), doc = box.ownerDocument, win = doc.defaultView;
        const mac = /Mac|iPhone|iPad/.test(win.navigator.platform || "");
        const hint = doc.createElement("div");
        hint.id = "ggZoomHint";
        hint.setAttribute("role", "status");
        hint.textContent = (mac ? "\u2318" : "Ctrl") + " + scroll to zoom";
        hint.style.cssText = "position:fixed;transform:translate(-50%,-50%);padding:10px 18px;border-radius:8px;" +
            "background:rgba(30,30,30,0.78);color:#fff;font:15px/1.2 sans-serif;pointer-events:none;opacity:0;" +
            "transition:opacity 0.2s;z-index:1000;white-space:nowrap";
        doc.body.appendChild(hint);
        let armed = false, hideTimer = 0;
        const showHint = () => {
            const r = box.getBoundingClientRect();
            hint.style.left = (r.left + r.width / 2) + "px";
            hint.style.top = (r.top + r.height / 2) + "px";
            hint.style.opacity = "1";
            clearTimeout(hideTimer);
            hideTimer = setTimeout(() => { hint.style.opacity = "0"; }, HINT_MS);
        };
        box.addEventListener("mousedown", () => { armed = true; }, true);
        doc.documentElement.addEventListener("mouseleave", () => { armed = false; });
        win.addEventListener("wheel", e => {
            if (!box.contains(e.target)) return;  // the info panel's own scrolling, say
            e.stopImmediatePropagation();  // Cytoscape's listener never sees it (touch pinches stay Cytoscape's)
            if (!(e.ctrlKey || e.metaKey || armed)) { showHint(); return; }  // the page scrolls
            hint.style.opacity = "0";
            e.preventDefault();            // neither the page's scroll nor the browser's own zoom
            if (!cy.zoomingEnabled() || !cy.userZoomingEnabled() || !e.deltaY) return;
            const r = box.getBoundingClientRect();
            // as Cytoscape's own wheel zoom does, the moves of a large canvas are not drawn while the view moves (6)
            const renderer = cy.renderer();
            if (renderer && renderer.data) {
                renderer.data.wheelZooming = true;
                clearTimeout(renderer.data.wheelTimeout);
                renderer.data.wheelTimeout = setTimeout(() => {
                    renderer.data.wheelZooming = false; renderer.redrawHint("eles", true); renderer.redraw();
                }, 150);
            }
            cy.zoom(local(cy, { level: cy.zoom() * wheelZoom(e),
                                renderedPosition: { x: e.clientX - r.left, y: e.clientY - r.top } }));
        }, { capture: true, passive: false });
    }

    // (3, 10, 15) One owner of the view at a time. A tap's reveal and an expansion's each ask for the view with the next
    // number (askView) and are made only if nothing asked since: the tap of a double-click no longer reveals after the
    // expansion did, nor the expansion's reveal ahead and the server's answer both move it (issue 35: the same scripted
    // expansion ended at zoom 0.83 or 0.62, whichever of three reveals came last on a loaded machine).
    function askView(cy) {
        cy.__ggViewAsk = (cy.__ggViewAsk || 0) + 1;
        return cy.__ggViewAsk;
    }

    // `show` once the view asked for as `mine` is still the one asked for, not before `from` (a time), and the info panel
    // is open with its width steady for three frames (the component opens it a tenth of a second after the selection,
    // and its width grows over a transition: the clear area is then final). Past `until`: `show` all the same if
    // `anyway` (an expansion's view, the panel closed), else nothing.
    function whenPanelSteady(cy, mine, from, until, anyway, show) {
        const doc = cy.container().ownerDocument, win = doc.defaultView;
        let last = -1, steady = 0;
        const look = () => {
            if (mine !== cy.__ggViewAsk) return;  // another click or expansion since
            const panel = doc.getElementById("infopanel");
            const open = panel && panel.getAttribute("data-expanded") === "true";
            const r = open ? overlayRect(doc, "infopanel") : null;
            const w = r ? r.width : -1;
            steady = w > 1 && Math.abs(w - last) < 0.5 ? steady + 1 : 0;
            last = w;
            const late = Date.now() >= until;
            if ((steady < 3 || Date.now() < from) && !late) { win.requestAnimationFrame(look); return; }
            if (steady >= 3 || anyway) show();
        };
        win.requestAnimationFrame(look);
    }

    // (10) A click on a node opens the info panel over the drawing's left part, where it can cover the node
    // clicked: once the panel has opened, the view pans, as little as it can, to put the node beside it. Not before a
    // second click could still make the click a double-click (Cytoscape's multiClickDebounceTime): that expansion's
    // view is then the one made (expansionView), and this one never is.
    function revealOnTap(cy) {
        const double = (typeof cy.multiClickDebounceTime === "function" ? cy.multiClickDebounceTime() : 250) + 20;
        cy.on("tap", "node", e => {
            const node = e.target, mine = askView(cy), now = Date.now();
            const seen = cy.nodes().filter(n => inSight(cy, n));  // what was in sight: kept clear of the panel if it fits
            whenPanelSteady(cy, mine, now + double, now + 2000, false, () => {
                if (!node.selected() || !node.inside()) return;
                const near = node.closedNeighborhood().nodes();
                reveal(cy, comfortFirst(cy, [seen.union(near), near], node, near,
                                        [seen.union(near), near].concat(boardsOn(cy) ? [[near, PANEL_SHARE]] : [], [node])));
            });
        });
    }

    // (3, 15) An expansion of `node` begins (a double-click, or a grouped canvas's collapse shown ahead): the view is
    // its own from now on (a tap's reveal still waiting is not made), and what is in sight now is what its reveal keeps.
    // Cytoscape sends a double-click as both dblclick and dbltap: the second is the same expansion.
    function beginExpansion(cy, node) {
        const was = cy.__ggExpansion;
        if (was && was.node === node.id() && Date.now() - was.at < 100) return was;
        cy.__ggSettled = null;  // (an earlier expansion's ring, settled)
        cy.__ggExpansion = { node: node.id(), at: Date.now(), ask: askView(cy),
                             seen: cy.nodes().filter(n => inSight(cy, n)) };
        return cy.__ggExpansion;
    }

    // (3, 15) An expansion's view (`show`, which reveals), made once: after `wait` ms (what it added still glides) and
    // once the info panel is steady (the double-click's selection opens it), unless another view was asked for since
    // (`mine`).
    function expansionView(cy, mine, wait, show) {
        win(cy).setTimeout(() => whenPanelSteady(cy, mine, 0, Date.now() + 2000, true, () => {
            zoomFloor(cy);
            show();
        }), wait);
    }

    // (11) Labels and names under CONFIG.minLabel px on screen hidden; the classes change only when the zoom
    // crosses a threshold (or elements are added), since restyling thousands of elements costs a frame or more.
    // A large canvas labels only its focus, the selected node and the highlighted moves (canvas/style.py
    // _large_rules), so only they are classed, again at each selection: the whole 9,000 elements would be
    // restyled just after their first drawing.
    function hideSpecks(cy, again) {
        glyphs(cy, again);
        const z = cy.zoom(), least = +CONFIG.minLabel || 0;
        const nodes = (+CONFIG.labelFont || 12) * z < least, moves = (+CONFIG.moveFont || 12) * z < least;
        const was = cy.__ggSpecks;
        if (!again && was && was[0] === nodes && was[1] === moves) return;
        cy.__ggSpecks = [nodes, moves];
        const large = cy.nodes().length >= CONFIG.large;
        cy.batch(() => {
            const labelled = large ? cy.nodes("[_focus], :selected") : cy.nodes();
            const named = large ? cy.edges(":selected, .highlight") : cy.edges();
            if (nodes) labelled.addClass("gg-speck"); else cy.nodes(".gg-speck").removeClass("gg-speck");
            if (moves) named.addClass("gg-speck"); else cy.edges(".gg-speck").removeClass("gg-speck");
            arrowEnds(cy);
        });
    }

    // (11) A move ends at its target's label where the label is drawn (canvas/style.py: target-endpoint
    // outside-to-node-or-label, so an upward move's arrowhead is not under the label's card), and at the node itself
    // where the label is hidden as a speck: else the arrow stopped in the empty air under the node.
    function arrowEnds(cy) {
        const bare = cy.edges().filter(e => e.target().hasClass("gg-speck"));
        cy.batch(() => {
            cy.edges(".gg-to-node").not(bare).removeClass("gg-to-node");
            bare.filter(e => !e.hasClass("gg-to-node")).addClass("gg-to-node");
        });
    }

    // (21) Below the zoom at which the labels are drawn at their size (11: a Fit of the whole drawing, which at 1000 px
    // showed Pong Hau K'i with every label hidden, issue 35), once the zoom has stopped changing (SMALL_WAIT_MS), each
    // label is drawn at CONFIG.minLabel px on screen (its font enlarged) where it then covers no node and no label kept
    // before it (the focus first); the others stay hidden. Not below SMALL_LEAST of that zoom (the labels would be larger
    // than the room the layout gave them) nor on a large canvas. Undone at the next zoom, so nothing is done per frame of
    // a glide but a timer's reset; once still, O(V^2) over the labels (fewer than CONFIG.large).
    const SMALL_WAIT_MS = 150, SMALL_LEAST = 0.6;
    function smallSoon(cy) {
        const win = cy.container().ownerDocument.defaultView;
        if (cy.__ggSmall) unSmall(cy);
        win.clearTimeout(cy.__ggSmallTimer);
        cy.__ggSmallTimer = win.setTimeout(() => {
            if (cy.animated() || cy.nodes().some(n => n.animated())) { smallSoon(cy); return; }
            smallLabels(cy);
        }, SMALL_WAIT_MS);
    }

    function unSmall(cy) {
        const enlarged = cy.__ggSmall;
        cy.__ggSmall = null;
        if (!enlarged) return;
        cy.batch(() => enlarged.removeStyle("font-size"));
        hideSpecks(cy, true);
        cy.emit("gglabels");
    }

    function smallLabels(cy) {
        const z = cy.zoom(), readable = labelZoom();
        if (z >= readable || z < readable * SMALL_LEAST || cy.nodes().length >= CONFIG.large) return;
        const hidden = cy.nodes(".gg-speck").filter(n => n.visible() && n.style("label"));
        if (!hidden.length) return;
        hidden.style("font-size", (+CONFIG.labelFont || 12) * readable / z);  // (model px; measured so below)
        const meets = (a, o) => a.x1 < o.x2 && o.x1 < a.x2 && a.y1 < o.y2 && o.y1 < a.y2;
        const bodies = cy.nodes().filter(n => n.visible()).map(n => [n.id(), n.boundingBox(NODE_BODY)]);
        const kept = [], shown = [];
        hidden.sort((a, b) => (b.data("_focus") ? 1 : 0) - (a.data("_focus") ? 1 : 0)).forEach(n => {
            const l = n.boundingBox(LABEL_ONLY), b = { x1: l.x1 + 1, y1: l.y1 + 1, x2: l.x2 - 1, y2: l.y2 - 1 };
            // (its own node's box, with its ring and outline, reaches into its label)
            if (!(l.w > 0) || bodies.some(([id, o]) => id !== n.id() && meets(b, o)) || kept.some(o => meets(b, o))) return;
            kept.push(b);
            shown.push(n);
        });
        const enlarged = cy.collection(shown);
        cy.batch(() => { hidden.not(enlarged).removeStyle("font-size"); enlarged.removeClass("gg-speck"); arrowEnds(cy); });
        cy.__ggSmall = enlarged.length ? enlarged : null;
        cy.emit("gglabels");  // the bands' names placed again round the labels (13)
    }

    // (18) Boards under CONFIG.minBoard px on screen drawn as glyphs; the class changes only when the zoom crosses the
    // threshold (or elements are added, `again`). The threshold is the game's (Offers.board_px: Dōbutsu's lettered 3x4
    // board with its hands reads from about 214 px, tic-tac-toe's from 18): read from the config the page set last
    // (keep_view, again when another game opens), not the one this script first saw.
    function glyphs(cy, again) {
        const config = window.__ggCanvas || CONFIG;
        const small = (+config.boardSize || 64) * cy.zoom() < (+config.minBoard || 0);
        if (!again && cy.__ggGlyphs === small) return;
        cy.__ggGlyphs = small;
        // (every node, not only those with a board now: boards turned on give the nodes their pictures without an
        // addition or a zoom, and a Dōbutsu board at the default zoom was drawn)
        cy.batch(() => {
            if (small) cy.nodes().addClass("gg-glyph");
            else cy.nodes(".gg-glyph").removeClass("gg-glyph");
        });
    }

    // (12) After a layout has placed the nodes (a force-directed one is made in the browser, where the server
    // cannot place the moves' names as it does for its own layouts), after a drag and after moves come or go:
    // a move's name whose box overlaps a node's box (its disc or board, or its label) or a name kept before it
    // (the best moves first) gets the class gg-tucked, which hides it until the move or one of its ends is
    // selected or under the pointer. Hidden rather than slid along the move: a force layout's moves are about
    // 90 px, most of it under the two ends' boards and labels, and a name moved off its middle no longer reads
    // as the name of that move; at its one place, shown on hover or selection, it does. O(E x (V + E)) through
    // a grid of CELL-sized cells; a large canvas draws no names.
    const CELL = 80;
    const LABEL_ONLY = { includeNodes: false, includeEdges: false, includeLabels: true, includeOverlays: false };
    const NODE_BODY = { includeNodes: true, includeEdges: false, includeLabels: false, includeOverlays: false };
    function tuckNames(cy) {
        unreveal(cy, cy.edges(".gg-shown"));
        cy.__ggPlaces = null;
        if (cy.nodes().length >= CONFIG.large || cy.edges().length === 0) {
            cy.edges(".gg-tucked").removeClass("gg-tucked");
            return;
        }
        const grid = new Map();
        const cells = (b, f) => {
            for (let i = Math.floor(b.x1 / CELL); i <= Math.floor(b.x2 / CELL); i++)
                for (let j = Math.floor(b.y1 / CELL); j <= Math.floor(b.y2 / CELL); j++) f(i + "," + j);
        };
        const put = b => cells(b, k => { if (!grid.has(k)) grid.set(k, []); grid.get(k).push(b); });
        const clear = b => { let ok = true; cells(b, k => { if (ok) ok = (grid.get(k) || []).every(
            o => b.x2 <= o.x1 || b.x1 >= o.x2 || b.y2 <= o.y1 || b.y1 >= o.y2); }); return ok; };
        // a node's disc (or board) and its label, each its own box, as the server measures them (canvas/captions.py): one
        // box round both is as wide as the disc all down the label, and took a name beside a narrow label for one over
        // it (issue 35: tic-tac-toe's "X a3" and "X b2" beside the start's "..." were hidden, "X b3" alone named)
        cy.nodes().forEach(n => [n.boundingBox(NODE_BODY), n.boundingBox(LABEL_ONLY)].forEach(b => {
            if (b.w > 0 && b.h > 0 && isFinite(b.w)) put(b); }));
        // every move's drawn line as segments LINE_STEP long: a name another move crosses is tucked too (issue 35).
        // Segments, not their points: a line that only clipped a name's corner passed between two points (a node
        // drawn smaller, "Size by", brings its moves' ends nearer the names placed beside it).
        const lines = new Map();
        cy.edges().forEach(e => { const pts = movePoints(e); for (let i = 1; i < pts.length; i++) {
            const a = pts[i - 1], c = pts[i];
            const seg = [a.x, a.y, c.x, c.y, e];
            cells({ x1: Math.min(a.x, c.x), y1: Math.min(a.y, c.y), x2: Math.max(a.x, c.x), y2: Math.max(a.y, c.y) }, k => {
                if (!lines.has(k)) lines.set(k, []);
                lines.get(k).push(seg);
            });
        } });
        const crossed = (b, own) => { let hit = false; const r = { x1: b.x1 + 0.5, y1: b.y1 + 0.5, x2: b.x2 - 0.5, y2: b.y2 - 0.5 };
            cells(b, k => { if (!hit) hit = (lines.get(k) || []).some(([x1, y1, x2, y2, e]) => e !== own && segmentInBox(x1, y1, x2, y2, r)); });
            return hit; };
        const tucked = [], shown = [];
        const edges = cy.edges().sort((a, b) => (b.data("optimal") ? 1 : 0) - (a.data("optimal") ? 1 : 0));
        edges.forEach(e => {
            // a move named only when selected or highlighted (the server's _no_name) is revealed as a tucked one is
            if (e.data("_no_name")) { tucked.push(e); return; }
            const b = e.boundingBox(LABEL_ONLY);
            if (!(b.w > 0 && b.h > 0 && isFinite(b.w))) { shown.push(e); return; }  // no name drawn
            // 1 px less each side: a name that touches a box is read
            const inner = { x1: b.x1 + 1, y1: b.y1 + 1, x2: b.x2 - 1, y2: b.y2 - 1 };
            if (clear(inner) && !crossed(inner, e)) { put(inner); shown.push(e); } else tucked.push(e);
        });
        cy.batch(() => {
            cy.collection(shown).filter(".gg-tucked").removeClass("gg-tucked");
            cy.collection(tucked).filter(e => !e.hasClass("gg-tucked")).addClass("gg-tucked");
        });
        cy.__ggPlaces = { clear, crossed, sig: null };
        revealNames(cy);
    }

    // (20) A node's label hangs below its node; where a move between two other nodes runs through it there (issue 35:
    // "Edges never run through a caption"; moves passed under tic-tac-toe's three-line labels), it is put beside its
    // node, right or left, or above it, else at one of its corners: the first of those spots that no move's line crosses (its own moves included)
    // and that covers no node, no other label and no move's name; where none is, it stays below. Looked at once the
    // nodes are still after a layout, a drag or an expansion (an expansion's nodes glide GLIDE_MS), then the moves'
    // names are tucked anew round the labels as placed; nothing per frame. O(V x spots x (V + E + segments near)),
    // not on a large canvas (it labels no node) nor on a grouped one (its labels sit where its layout made room).
    const CAPTION_SPOTS = [
        { "text-valign": "center", "text-halign": "right", "text-margin-x": 7, "text-margin-y": 0 },
        { "text-valign": "center", "text-halign": "left", "text-margin-x": -7, "text-margin-y": 0 },
        { "text-valign": "top", "text-halign": "center", "text-margin-x": 0, "text-margin-y": -3 },
        { "text-valign": "bottom", "text-halign": "right", "text-margin-x": 2, "text-margin-y": 2 },
        { "text-valign": "bottom", "text-halign": "left", "text-margin-x": -2, "text-margin-y": 2 },
        { "text-valign": "top", "text-halign": "right", "text-margin-x": 2, "text-margin-y": -2 },
        { "text-valign": "top", "text-halign": "left", "text-margin-x": -2, "text-margin-y": -2 },
    ];
    const CAPTION_STYLE = "text-valign text-halign text-margin-x text-margin-y";
    // Every label moved put back below its node: before a spot is looked for, and before a layout runs (fcose makes room
    // for each label where it is, nodeDimensionsIncludeLabels: a label left above its node by the layered layout was put
    // back below at the force layout's end, over the node fcose had placed there; Dodgem 3x3, issue 35).
    function resetCaptions(cy) {
        const moved = cy.nodes().filter(n => n.scratch("_ggCaption"));
        if (moved.length) cy.batch(() => moved.forEach(n => { n.removeStyle(CAPTION_STYLE); n.removeScratch("_ggCaption"); }));
        const routed = cy.edges().filter(e => e.scratch("_ggRouted"));
        if (routed.length) cy.batch(() => routed.forEach(e => { e.removeStyle(ROUTE_STYLE); e.removeScratch("_ggRouted"); }));
    }

    // (20) A move that still runs through a node's label (or its disc) once the labels are placed, neither of them its
    // own ends', is bent round it: drawn as a curve through one control point (as the server bends a move round a node in
    // its way, canvas/layout.py bend_around), the least bend, either side, that leaves it crossing none, else the fewest
    // (issue 35: on tic-tac-toe and Dodgem 3x3 one to four labels had no spot beside or above their node that no move
    // crossed). Undone with the labels' spots (resetCaptions), before any layout and before they are looked at again; the
    // moves' names are then tucked anew round the lines as bent (tuckNames). O(E crossing x ROUTE_BENDS x (V + labels)).
    const ROUTE_STYLE = "curve-style control-point-distances control-point-weights";
    const ROUTE_BENDS = [16, 24, 32, 44, 58, 74, 92, 112, 136];  // model px: the control point's distance, least first
    function routeAround(cy, nodes, labels) {
        const boxes = nodes.map((n, i) => [n.id(), labels[i]]).filter(([, b]) => b.x2 > b.x1)
            .concat(cy.nodes().filter(n => n.visible()).map(n => [n.id(), n.boundingBox(NODE_BODY)]));
        const through = (e, pts) => {
            const ends = [e.source().id(), e.target().id()];
            let count = 0;
            boxes.forEach(([id, b]) => {
                if (ends.includes(id) || pts.every(p => p.x < b.x1 || p.x > b.x2) || pts.every(p => p.y < b.y1 || p.y > b.y2)) return;
                for (let k = 1; k < pts.length; k++)
                    if (segmentInBox(pts[k - 1].x, pts[k - 1].y, pts[k].x, pts[k].y, b)) { count++; return; }
            });
            return count;
        };
        cy.edges().filter(e => e.visible() && !e.isLoop()).forEach(e => {
            const now = through(e, movePoints(e));
            if (now === 0) return;
            const base = e.data("_bent") ? (+e.data("_bend") || 0) : 0;
            let best = null, least = now;
            for (const bend of ROUTE_BENDS) {
                for (const side of [1, -1]) {
                    const d = base + side * bend;
                    e.style(local(cy, { "curve-style": "unbundled-bezier", "control-point-distances": d, "control-point-weights": 0.5 }));
                    const n = through(e, movePoints(e));
                    if (n < least) { least = n; best = d; }
                    if (least === 0) break;
                }
                if (least === 0) break;
            }
            if (best === null) { e.removeStyle(ROUTE_STYLE); return; }
            e.style(local(cy, { "curve-style": "unbundled-bezier", "control-point-distances": best, "control-point-weights": 0.5 }));
            e.scratch("_ggRouted", true);
        });
    }

    function placeCaptions(cy) {
        resetCaptions(cy);
        if (cy.nodes().length >= CONFIG.large || cy.edges().length === 0 || cy.nodes("[?_cluster]").length) return;
        const lines = new Map();
        const cells = (b, f) => {
            for (let i = Math.floor(b.x1 / CELL); i <= Math.floor(b.x2 / CELL); i++)
                for (let j = Math.floor(b.y1 / CELL); j <= Math.floor(b.y2 / CELL); j++) f(i + "," + j);
        };
        cy.edges().filter(e => e.visible()).forEach(e => { const pts = movePoints(e); for (let i = 1; i < pts.length; i++) {
            const a = pts[i - 1], c = pts[i];
            cells({ x1: Math.min(a.x, c.x), y1: Math.min(a.y, c.y), x2: Math.max(a.x, c.x), y2: Math.max(a.y, c.y) }, k => {
                if (!lines.has(k)) lines.set(k, []);
                lines.get(k).push([a.x, a.y, c.x, c.y, e]);
            });
        } });
        const crossed = (b, skip) => { let hit = false;
            cells(b, k => { if (!hit) hit = (lines.get(k) || []).some(([x1, y1, x2, y2, e]) => !skip(e) && segmentInBox(x1, y1, x2, y2, b)); });
            return hit; };
        const inner = b => ({ x1: b.x1 + 1, y1: b.y1 + 1, x2: b.x2 - 1, y2: b.y2 - 1 });
        const meets = (a, o) => a.x1 < o.x2 && o.x1 < a.x2 && a.y1 < o.y2 && o.y1 < a.y2;
        const nodes = cy.nodes().filter(n => n.visible() && n.style("label"));
        const bodies = cy.nodes().map(n => [n.id(), n.boundingBox(NODE_BODY)]);
        const labels = nodes.map(n => inner(n.boundingBox(LABEL_ONLY)));
        const names = cy.edges().map(e => e.boundingBox(LABEL_ONLY)).filter(b => b.w > 0 && isFinite(b.w));
        const spots = CAPTION_SPOTS.map(spot => local(cy, spot));  // (Cytoscape.js takes only its own realm's objects)
        // each node's whole box (its disc or board and its label), as the view keeper and the tests see a node: a label
        // beside its node widens it, and it must not then reach another's (tic-tac-toe's force layout had two overlapping)
        const WHOLE = { includeNodes: true, includeEdges: false, includeLabels: true, includeOverlays: false };
        const wholes = new Map(cy.nodes().map(n => [n.id(), n.boundingBox(WHOLE)]));
        // A node shown whole and clear of the overlays in the view as it is stays so (a label put above a node of the top
        // row went past the canvas's edge: dobutsu:small's six-line labels, issue 35).
        const doc = cy.container().ownerDocument, frame = cy.container().getBoundingClientRect();
        const rects = OVERLAYS.map(id => overlayRect(doc, id)).filter(Boolean)
            .map(r => ({ x1: r.left - frame.left - MARGIN, y1: r.top - frame.top - MARGIN,
                         x2: r.right - frame.left + MARGIN, y2: r.bottom - frame.top + MARGIN }));
        const z = cy.zoom(), pan = cy.pan();
        const shown = b => { const r = { x1: b.x1 * z + pan.x, y1: b.y1 * z + pan.y, x2: b.x2 * z + pan.x, y2: b.y2 * z + pan.y };
            return r.x1 >= 0 && r.y1 >= 0 && r.x2 <= frame.width && r.y2 <= frame.height && !rects.some(o => meets(r, o)); };
        nodes.forEach((n, i) => {
            const own = new Set(n.connectedEdges().map(e => e.id()));
            if (!(labels[i].x2 > labels[i].x1) || !crossed(labels[i], e => own.has(e.id()))) return;
            for (const spot of spots) {
                n.style(spot);
                const b = inner(n.boundingBox(LABEL_ONLY));
                // (its own node's box holds its ring, which the label beside it may touch)
                if (!(b.x2 > b.x1) || crossed(b, () => false) || bodies.some(([id, box]) => id !== n.id() && meets(b, box)) ||
                    labels.some((o, j) => j !== i && meets(b, o)) || names.some(o => meets(b, o))) continue;
                const whole = n.boundingBox(WHOLE);
                if (Array.from(wholes).some(([id, o]) => id !== n.id() && meets(whole, o))) continue;
                if (shown(wholes.get(n.id())) && !shown(whole)) continue;
                wholes.set(n.id(), whole);
                n.scratch("_ggCaption", true);
                labels[i] = b;
                return;
            }
            n.removeStyle(CAPTION_STYLE);
        });
        routeAround(cy, nodes, labels);
    }

    function captionsSoon(cy) {
        const win = cy.container().ownerDocument.defaultView;
        win.clearTimeout(cy.__ggCaptions);
        cy.__ggCaptions = win.setTimeout(() => {
            if (cy.animated() || cy.nodes().some(n => n.animated())) { captionsSoon(cy); return; }
            placeCaptions(cy);
            tuckNames(cy);
            cy.emit("gglabels");  // the bands' names placed again round the labels as moved (13)
        }, GLIDE_MS + 50);
    }

    // (12) A tucked move's name is shown when the move or one of its ends is selected or highlighted (the component
    // highlights a selected node's moves, and what an expansion brought), but only where it covers no node, no
    // label, no name drawn and no other move's line: at its own place if that is clear now, else at the first clear
    // spot along its move, nearest its own place (a source label at that distance, as the server places names:
    // canvas/captions.py); where there is none it stays hidden (the pointer over the move shows it). Revealed
    // where they were, after a double-click the names of the new moves lay on the nodes' labels (issue 35).
    const BESIDE = [2, 8, 14];  // model px between a move's line and its name put beside it (revealNames)
    const SHOWN_STYLE = "label source-label source-text-offset source-text-rotation source-text-margin-x source-text-margin-y";
    function unreveal(cy, eles) {
        if (!eles.length) return;
        cy.batch(() => eles.forEach(e => { e.removeClass("gg-shown"); if (e.scratch("_ggMoved")) { e.removeStyle(SHOWN_STYLE); e.removeScratch("_ggMoved"); } }));
    }

    function revealNames(cy) {
        const places = cy.__ggPlaces;
        if (!places) return;
        const want = cy.edges(".gg-tucked").filter(e => e.selected() || e.hasClass("highlight") || e.hasClass("gg-near"));
        const sig = want.map(e => e.id()).sort().join("\n");
        if (sig === places.sig) return;
        if (places.sig !== null) { tuckNames(cy); return; }  // measured afresh: the nodes or the moves' bends may have moved since
        places.sig = sig;
        unreveal(cy, cy.edges(".gg-shown"));
        const taken = [];
        const free = (b, e) => places.clear(b) && !places.crossed(b, e) &&
            taken.every(o => b.x2 <= o.x1 || b.x1 >= o.x2 || b.y2 <= o.y1 || b.y1 >= o.y2);
        const sorted = want.sort((a, b) => (b.data("optimal") ? 1 : 0) - (a.data("optimal") ? 1 : 0));
        sorted.forEach(e => {  // (not batched: each name placed is measured as drawn)
            const b = e.boundingBox(LABEL_ONLY);
            if (!(b.w > 0 && b.h > 0 && isFinite(b.w))) return;
            const inner = { x1: b.x1 + 1, y1: b.y1 + 1, x2: b.x2 - 1, y2: b.y2 - 1 };
            if (free(inner, e)) { taken.push(inner); e.addClass("gg-shown"); return; }
            const text = e.style("source-label") || e.style("label");
            const points = movePoints(e);
            if (!text || points.length < 2) return;
            const cx = (b.x1 + b.x2) / 2, cyy = (b.y1 + b.y2) / 2;
            let walked = 0;
            const spots = points.map((p, i) => {
                if (i > 0) walked += Math.hypot(p.x - points[i - 1].x, p.y - points[i - 1].y);
                // (whether the move runs more up and down than across here: a name beside it then goes left or right)
                const a = points[Math.max(0, i - 1)], c = points[Math.min(points.length - 1, i + 1)];
                return { p, at: walked, far: Math.hypot(p.x - cx, p.y - cyy), steep: Math.abs(c.y - a.y) >= Math.abs(c.x - a.x) };
            }).sort((u, v) => u.far - v.far);
            // On its line first; else beside it, touching it or a little further out (a short move whose line is under
            // its ends' labels had no spot on it: after three expansions on tic-tac-toe, a node's move in from the node
            // above was nameless). The name shown takes the highlight's colour, as its move does.
            const beside = BESIDE.flatMap(gap => spots.flatMap(({ p, at, steep }) =>
                (steep ? [[b.w / 2 + gap, 0], [-b.w / 2 - gap, 0]] : [[0, -b.h / 2 - gap], [0, b.h / 2 + gap]])
                    .map(([dx, dy]) => ({ p: { x: p.x + dx, y: p.y + dy }, at, dx, dy }))));
            for (const { p, at, dx, dy } of spots.concat(beside)) {
                const box = { x1: p.x - b.w / 2 + 1, y1: p.y - b.h / 2 + 1, x2: p.x + b.w / 2 - 1, y2: p.y + b.h / 2 - 1 };
                if (!free(box, e)) continue;
                // (an object of the frame's realm: Cytoscape.js took this page's for no style at all, so no name slid
                // along its move was ever drawn, and the new moves of a node selected after an expansion stayed nameless)
                e.style(local(cy, { "label": "", "source-label": text, "source-text-offset": at, "source-text-rotation": "none",
                                    "source-text-margin-x": dx || 0, "source-text-margin-y": dy || 0 }));
                e.scratch("_ggMoved", true);
                const got = e.boundingBox(LABEL_ONLY);  // where Cytoscape.js draws it, which must be clear too
                const drawn = { x1: got.x1 + 1, y1: got.y1 + 1, x2: got.x2 - 1, y2: got.y2 - 1 };
                if (!(got.w > 0 && isFinite(got.w)) || !free(drawn, e)) continue;
                taken.push(drawn);
                e.addClass("gg-shown");
                return;
            }
            if (e.scratch("_ggMoved")) { e.removeStyle(SHOWN_STYLE); e.removeScratch("_ggMoved"); }
        });
    }

    function revealSoon(cy) {
        if (cy.__ggReveal) return;
        cy.__ggReveal = true;
        cy.container().ownerDocument.defaultView.requestAnimationFrame(() => setTimeout(() => {
            cy.__ggReveal = false;
            revealNames(cy);
        }, 0));
    }

    // Whether the segment (x1, y1)-(x2, y2) has a point strictly inside the box r (Liang-Barsky clipping).
    function segmentInBox(x1, y1, x2, y2, r) {
        if (!(r.x2 > r.x1 && r.y2 > r.y1)) return false;
        let lo = 0, hi = 1;
        const dx = x2 - x1, dy = y2 - y1;
        for (const [p, q] of [[-dx, x1 - r.x1], [dx, r.x2 - x1], [-dy, y1 - r.y1], [dy, r.y2 - y1]]) {
            if (p === 0) { if (q <= 0) return false; continue; }
            const t = q / p;
            if (p < 0) { if (t > lo) lo = t; } else if (t < hi) hi = t;
            if (lo >= hi) return false;
        }
        return true;
    }

    // (12) The points of a move as drawn, LINE_STEP apart: straight, or the quadratic curve through its one
    // control point (a move bent by the server, or fanned out by Cytoscape.js), from endpoint to endpoint.
    const LINE_STEP = 3;
    function movePoints(e) {
        const s = e.sourceEndpoint(), t = e.targetEndpoint();
        if (!s || !t || !isFinite(s.x) || !isFinite(t.x)) return [];
        const cps = e.controlPoints && e.controlPoints();
        const c = cps && cps.length === 1 ? cps[0] : null;
        const n = Math.max(2, Math.ceil(Math.hypot(t.x - s.x, t.y - s.y) * (c ? 1.3 : 1) / LINE_STEP));
        const points = [];
        for (let i = 0; i <= n; i++) {
            const u = i / n;
            points.push(c ? { x: (1 - u) * (1 - u) * s.x + 2 * u * (1 - u) * c.x + u * u * t.x,
                              y: (1 - u) * (1 - u) * s.y + 2 * u * (1 - u) * c.y + u * u * t.y }
                          : { x: s.x + (t.x - s.x) * u, y: s.y + (t.y - s.y) * u });
        }
        return points;
    }

    // (13) the layered bands' names, on a layer of their own over the drawing
    const ROW_FONT = 11;
    const ROW_SHIFT = 24;  // px on screen: how far a band's name may move further out, away from a move through it
    const ROW_EDGE = 2;    // px on screen between a band's name and the canvas's edge (whole, if close)
    const ROW_GAP_PX = 6;  // px on screen between a band's name put inside the band and the node or label beside it
    const ROW_BODY = { includeNodes: true, includeEdges: false, includeLabels: false, includeOverlays: false };
    const ROW_LABEL = { includeNodes: false, includeEdges: false, includeLabels: true, includeOverlays: false };
    // The box (model px) of a move's arrowhead: the last ARROW_LENGTH px of its line `pts` (movePoints), ARROW_HALF
    // either side (Cytoscape.js's triangle at the style sheet's arrow-scale 0.9 is about 8 px long and 8 px wide)
    const ARROW_LENGTH = 10, ARROW_HALF = 5;
    function arrowBox(pts) {
        const t = pts[pts.length - 1];
        let i = pts.length - 2;
        while (i > 0 && Math.hypot(t.x - pts[i].x, t.y - pts[i].y) < ARROW_LENGTH) i--;
        const s = pts[Math.max(0, i)], d = Math.hypot(t.x - s.x, t.y - s.y) || 1;
        const a = { x: t.x + (s.x - t.x) * Math.min(1, ARROW_LENGTH / d), y: t.y + (s.y - t.y) * Math.min(1, ARROW_LENGTH / d) };
        return { x1: Math.min(t.x, a.x) - ARROW_HALF, y1: Math.min(t.y, a.y) - ARROW_HALF,
                 x2: Math.max(t.x, a.x) + ARROW_HALF, y2: Math.max(t.y, a.y) + ARROW_HALF };
    }

    function rowNames(cy) {
        const doc = cy.container().ownerDocument;
        const layer = doc.createElement("div");
        layer.className = "gg-rows";
        layer.style.cssText = "position:absolute;left:0;top:0;width:100%;height:100%;pointer-events:none;overflow:hidden;z-index:2";
        cy.container().appendChild(layer);
        let shown = null, list = [];
        const update = () => {
            const focus = cy.nodes("[_focus]");
            const rows = focus.length ? (focus.data("_rows") || "") : "";
            // While nodes or the view glide (a layout's or an expansion's animation, a reveal), each name keeps the
            // spot it was given when they were last still and only follows the view: the spots are looked at again
            // once they stop (the checks cost 7-14 ms a frame at 48 nodes, O(nodes + moves) each, issue 35)
            const gliding = cy.animated() || cy.nodes().some(n => n.animated());
            if (rows !== shown) {
                shown = rows;
                const spotOf = new Map(Array.from(layer.children, name => [name.textContent, name.__ggSpot]));
                try { list = rows ? JSON.parse(rows) : []; } catch (e) { list = []; }
                layer.textContent = "";
                list.forEach(row => {
                    const name = doc.createElement("div");
                    name.__ggSpot = spotOf.get(String(row.text));  // (a band named again keeps its spot while it glides)
                    name.className = "gg-row";
                    name.textContent = String(row.text);
                    name.style.cssText = "position:absolute;transform:translate(-100%,-50%);white-space:nowrap;" +
                        `font:${ROW_FONT}px sans-serif;color:#555555;background:#ffffff;padding:0 3px;border-radius:2px;`;
                    layer.appendChild(name);
                });
            }
            const z = cy.zoom(), pan = cy.pan(), area = list.length ? clearArea(cy) : null;
            // Where a name may be: whole in the canvas and clear of each overlay (each one's own box, with MARGIN), not
            // only inside the clear area, the one rectangle clearArea keeps clear of them all (issue 35: the top band's
            // name, beside a focus drawn at the top, was above that rectangle, which the toolbar in the far corner cut
            // short, and so always hidden; at 1000 px the zoom buttons cut its right side off the bands above them).
            const frame = cy.container().getBoundingClientRect();
            const covered = list.length ? OVERLAYS.map(id => overlayRect(doc, id)).filter(r => r).map(r => ({
                x1: r.left - frame.left - MARGIN, y1: r.top - frame.top - MARGIN,
                x2: r.right - frame.left + MARGIN, y2: r.bottom - frame.top + MARGIN })) : [];
            const inSight = b => b.x1 >= ROW_EDGE && b.y1 >= ROW_EDGE && b.x2 <= frame.width - ROW_EDGE &&
                b.y2 <= frame.height - ROW_EDGE && covered.every(o => b.x2 <= o.x1 || b.x1 >= o.x2 || b.y2 <= o.y1 || b.y1 >= o.y2);
            const right = frame.width - ROW_EDGE;  // (the furthest right a name may end)
            // the left edge of what is clear between the heights y1 and y2 for a name `w` wide: right of every overlay
            // (with MARGIN) in its way from the canvas's left edge on
            const leftAt = (y1, y2, w) => {
                let x = ROW_EDGE;
                for (let moved = true, n = 0; moved && n <= covered.length; n++) {
                    moved = false;
                    covered.forEach(o => { if (o.y1 < y2 && o.y2 > y1 && o.x1 < x + w && o.x2 > x) { x = o.x2; moved = true; } });
                }
                return x;
            };
            const large = cy.nodes().length >= CONFIG.large;  // (a large canvas labels no node: nor its bands)
            const placing = list.length && !large && !gliding;
            const boxes = placing ? cy.nodes().map(n => [n.renderedBoundingBox(ROW_BODY),
                                                         n.renderedBoundingBox(ROW_LABEL)]).flat() : [];
            // and the moves' names drawn (a name revealed on a selection lay under "remoteness 1")
            if (placing) cy.edges().forEach(e => {
                if (+e.style("text-opacity") > 0 && !e.hasClass("gg-speck")) boxes.push(e.renderedBoundingBox(ROW_LABEL));
            });
            const lines = placing ? rowLines() : [];
            // the names placed so far (rendered px): a band's name is never drawn over another's (issue 35: after a fit
            // at 1000 px, "draws, 2 moves away" lay under "draws, 7 moves away"). O(bands^2), only while the view is still.
            const named = [];
            list.forEach((row, i) => {
                const name = layer.children[i];
                if (!name) return;
                const w = name.offsetWidth, h = name.offsetHeight, y = row.y * z + pan.y;
                // where it may go: left of the band (its end at `x`), a little further left, then right of the band
                // (its start at `x2`), a little further right; the first spot where it is whole and clear is taken
                const spots = [0, ROW_SHIFT, 2 * ROW_SHIFT].map(d => row.x * z + pan.x - w - d);
                if (typeof row.x2 === "number") spots.push(...[0, ROW_SHIFT, 2 * ROW_SHIFT].map(d => row.x2 * z + pan.x + d));
                // Where the band's ends are out of the clear area (its left end under the opened info panel, its right
                // end past the canvas's edge: at 1000 px every band's name was hidden once the panel opened), the name
                // goes inside the band's extent, in sight: at the clear area's left edge, else in a gap beside a node or
                // label of the band, the nearest to the band's left end first (the checks below keep it clear).
                if (placing && area && typeof row.x2 === "number") {  // (while gliding a name keeps its spot: below)
                    const inRow = boxes.filter(o => o.w > 0 && o.y1 < y + h / 2 && o.y2 > y - h / 2);
                    const end = row.x2 * z + pan.x;  // (never past the band's ends: a name away from its band misleads)
                    const inner = [area.x1].concat(inRow.map(o => o.x2 + ROW_GAP_PX),
                                                   inRow.map(o => o.x1 - ROW_GAP_PX - w))
                        .filter(left => left >= Math.max(area.x1, spots[0]) && left + w <= Math.min(right, end))
                        .sort((a, b) => Math.abs(a - spots[0]) - Math.abs(b - spots[0]));
                    spots.push(...inner);
                }
                // Then at the left edge of what is clear at the band's height (right of the info panel, or of the toolbar
                // where the band is as high as it), as a table's row names (issue 35: at 1000 px, moves ran beside a band
                // of one node on both sides, and "remoteness 7" had no spot near it). No longer at the canvas's right edge:
                // after a Fit at 1000 px "remoteness 7" sat there, far from its band's one node.
                if (placing) spots.push(leftAt(y - h / 2, y + h / 2, w));
                const tries = spots.map(left => [left, 0]);
                const inLine = placing && area && typeof row.x2 === "number" ?
                    boxes.filter(o => o.w > 0 && o.y1 < y + h / 2 && o.y2 > y - h / 2) : [];
                // Where the band's line is full across the clear area (no gap between its nodes as wide as the name; issue
                // 35: after three expansions on tic-tac-toe the remoteness 6 band was nameless), the name goes just above
                // the band's nodes, over one of them or a gap, the nearest to the band's left end first; then a line higher.
                const above = [];
                if (inLine.length) {
                    const top = Math.min(...inLine.map(o => o.y1)), end = row.x2 * z + pan.x, start = row.x * z + pan.x;
                    [top - ROW_GAP_PX / 2 - h / 2 - y, top - ROW_GAP_PX / 2 - 1.5 * h - y].forEach(dy => {
                        const strip = boxes.filter(o => o.w > 0 && o.y1 < y + dy + h / 2 && o.y2 > y + dy - h / 2);
                        // (over the band's extent, or just beside it: a band of one node narrower than its name is named
                        // over that node or beside it; after an expansion at 1440 px on Dodgem 3x3, "remoteness 19" was
                        // nameless so)
                        [area.x1, start, (start + end - w) / 2, end - w, start - w, end]
                            .concat(strip.map(o => o.x2 + ROW_GAP_PX), strip.map(o => o.x1 - ROW_GAP_PX - w))
                            .filter(left => left + w >= start && left <= end && left + w <= right)
                            .sort((a, b) => Math.abs(a - start) - Math.abs(b - start))
                            .forEach(left => above.push([left, dy]));
                    });
                    // then just above the nodes under the name's spot only, not above the line's tallest: a tall label
                    // elsewhere in the line (a board's five lines) put every spot above out of the canvas when the band
                    // was near its top edge (issue 35, session 28: "draws, 2 moves away" on dobutsu:small, nameless)
                    [start, end - w].concat(inLine.map(o => o.x2 + ROW_GAP_PX), inLine.map(o => o.x1 - ROW_GAP_PX - w))
                        .filter(left => left + w >= start && left <= end && left + w <= right)
                        .sort((a, b) => Math.abs(a - start) - Math.abs(b - start))
                        .forEach(left => {
                            const under = inLine.filter(o => o.x1 < left + w + ROW_GAP_PX && o.x2 > left - ROW_GAP_PX);
                            if (under.length) above.push([left, Math.min(...under.map(o => o.y1)) - ROW_GAP_PX / 2 - h / 2 - y]);
                        });
                }
                // Whole in sight, clear of every node, label, move's name drawn and other band's name; and, `overMoves`
                // false, of every move's line too. With `overMoves` a name may lie over moves' lines on its opaque card
                // (a move is a thin line, the name reads over it; issue 35: at 1000 px after three expansions on
                // tic-tac-toe, moves crossed every spot beside the bottom band and all six names were hidden), but never
                // over a move's arrowhead, which says where the move goes, nor along a move (one that runs under the
                // card for more than half its width: a move between two nodes of the band, hidden in the gap between them).
                // `overMoves` "along", the last resort at the band's height only: a move may run along under the card too
                // (still never over an arrowhead), where every spot there has one (issue 35, session 28: a band of one node
                // at the canvas's top edge beside the info panel and its node action bar, its moves leaving it flat to the
                // right as curves: no spot above it in sight, none left of it clear of the panel, and moves along every
                // spot right of it; the band in sight was nameless in one CI run of dobutsu:small at 1440 px).
                const fits = ([left, dy], overMoves) => {
                    const b = { x1: left, y1: y + dy - h / 2, x2: left + w, y2: y + dy + h / 2 };
                    // whole or not at all: never cut by the canvas's edge nor under an overlay
                    if (!inSight(b)) return false;
                    // nor drawn over a node or its label (an expansion may place nodes beside a band), nor over another band's name
                    if (!(named.every(o => b.x2 <= o.x1 || b.x1 >= o.x2 || b.y2 <= o.y1 || b.y1 >= o.y2) &&
                          boxes.every(o => !(o.w > 0) || b.x2 <= o.x1 || b.x1 >= o.x2 || b.y2 <= o.y1 || b.y1 >= o.y2))) return false;
                    const m = { x1: (b.x1 - pan.x) / z, y1: (b.y1 - pan.y) / z, x2: (b.x2 - pan.x) / z, y2: (b.y2 - pan.y) / z };
                    return !lines.some(([e, bb, pts, arrow]) => {
                        // never over a move's arrowhead, nor grazing its side
                        if (!(arrow.x2 <= m.x1 || arrow.x1 >= m.x2 || arrow.y2 <= m.y1 || arrow.y1 >= m.y2)) return true;
                        if (bb.x2 < m.x1 || bb.x1 > m.x2 || bb.y2 < m.y1 || bb.y1 > m.y2) return false;
                        if (overMoves === "along") return false;
                        if (overMoves) {
                            // a move may cross the card, not run along under it (a long stretch of it hidden; the
                            // points are about LINE_STEP apart)
                            const under = pts.filter(p => p.x > m.x1 && p.x < m.x2 && p.y > m.y1 && p.y < m.y2).length;
                            return under * LINE_STEP * z > w / 2;
                        }
                        // nor with a move's line running through it (issue 35: "remoteness 25" crossed)
                        for (let k = 1; k < pts.length; k++)
                            if (segmentInBox(pts[k - 1].x, pts[k - 1].y, pts[k].x, pts[k].y, m)) return true;
                        return false;
                    });
                };
                // At the band's height clear of moves; else at its height over moves, on its card; only then just above
                // the band's nodes (its line full), clear of moves, then over them: a name stays at its row.
                const kept = name.__ggSpot === undefined ? undefined : [name.__ggSpot * z + pan.x, (name.__ggDy || 0) * z];
                // A band in sight is named: as the last resort at its height over moves running along under its card.
                let along = false;
                const [at, dy] = (large ? undefined : gliding ? kept :
                    tries.find(t => fits(t, false)) || tries.find(t => fits(t, true)) ||
                    above.find(t => fits(t, false)) || above.find(t => fits(t, true)) ||
                    (along = true, tries.find(t => fits(t, "along")))) || [undefined, 0];
                // (marked, so that a test can tell the last resort from a name placed so by mistake)
                if (placing) { if (along && at !== undefined) name.dataset.along = "true"; else delete name.dataset.along; }
                // (the spot kept in the graph's x, so that it follows the view while nodes glide, an inner spot as well)
                if (placing) name.__ggSpot = at === undefined ? undefined : (at - pan.x) / z;
                if (placing) name.__ggDy = dy / z;
                if (at !== undefined) named.push({ x1: at, y1: y + dy - h / 2, x2: at + w, y2: y + dy + h / 2 });
                // (placed as text that ends at its left + w: the layer's names are right-aligned by their transform)
                name.style.left = ((at === undefined ? spots[0] : at) + w) + "px";
                name.style.top = (y + dy) + "px";
                name.style.visibility = at !== undefined ? "visible" : "hidden";
            });
            if (gliding && list.length && !large) soon();  // looked at again until nothing glides, then placed
            // (the signal that the names are placed for the view as it is now: false from a change until then)
            else if (!queued) layer.dataset.placed = "true";
        };
        // (13) every move's line as drawn (movePoints), with its box, in model px: made again after the moves or the
        // nodes change, not at every frame of a pan
        let drawnLines = null;
        const rowLines = () => {
            if (!drawnLines) drawnLines = cy.edges().filter(e => e.visible()).map(e => {
                const pts = movePoints(e);
                const xs = pts.map(p => p.x), ys = pts.map(p => p.y);
                return [e, { x1: Math.min(...xs), y1: Math.min(...ys), x2: Math.max(...xs), y2: Math.max(...ys) }, pts,
                        arrowBox(pts)];
            }).filter(([, , pts]) => pts.length > 1);
            return drawnLines;
        };
        cy.on("add remove position layoutstop data style", () => { drawnLines = null; });
        let queued = false;  // once a frame, however many viewport events ask for it
        const soon = () => {
            layer.dataset.placed = "false";
            if (queued) return;
            queued = true;
            doc.defaultView.requestAnimationFrame(() => { queued = false; update(); });
        };
        cy.on("viewport resize layoutstop add remove position gglabels", soon);
        cy.on("class style", "edge", soon);  // a move's name shown or hidden (12)
        cy.on("data", "node[_focus]", soon);
        // the info panel opening or folding (its width grows over a transition, and the view may not move after it):
        // a name placed beside the folded strip lay under the opened panel
        const panel = doc.getElementById("infopanel"), Observer = doc.defaultView.ResizeObserver;
        if (panel && Observer) new Observer(soon).observe(panel);
        update();
    }

    // (12) The moves' names drawn as text, not from pictures. Cytoscape.js draws a label from a picture of it, made the
    // first time it is drawn, as wide as the label's box at that moment, and kept while its text and style stay the same
    // (its label caches never take a changed box as a reason to make the picture again). A move's name that comes when
    // the move's data change (a layout switched to in the browser, 16: the layered layout's names at one end of a move
    // become names in its middle) was first drawn before its box was measured: a picture a few px wide, stretched over
    // the name's box, a grey smudge at every zoom (issue 35). The moves' names are drawn afresh each frame (a large
    // canvas names only a selected node's moves); the nodes' labels, which never move against their node, keep theirs.
    const LABEL_CACHES = ["lblTxrCache", "slbTxrCache", "tlbTxrCache"];
    function namesAsText(cy) {
        const data = cy.renderer() && cy.renderer().data;
        if (!data) return;
        LABEL_CACHES.forEach(name => { if (data[name]) data[name].allowEdgeTxrCaching = false; });
    }

    // (12) A move's name under one of the component's overlays (the toolbar, the zoom buttons, the info panel and its
    // bar) or cut by the canvas's edge is not drawn (class gg-covered) until the view shows it whole and clear: a search
    // that centred what it found left names of other moves under the toolbar (issue 35). Looked at once a frame while
    // the view moves; a large canvas draws no names.
    function coverNames(cy) {
        if (cy.nodes().length >= CONFIG.large || cy.edges().length === 0) return;
        const doc = cy.container().ownerDocument, box = cy.container().getBoundingClientRect();
        const rects = OVERLAYS.map(id => overlayRect(doc, id)).filter(Boolean)
            .map(r => ({ x1: r.left - box.left, y1: r.top - box.top, x2: r.right - box.left, y2: r.bottom - box.top }));
        const covered = [], clear = [];
        cy.edges().forEach(e => {
            const b = (e.style("label") || e.style("source-label")) ? e.renderedBoundingBox(LABEL_ONLY) : null;
            if (!b || !(b.w > 0 && isFinite(b.w))) { clear.push(e); return; }
            const cut = b.x1 < 0 || b.y1 < 0 || b.x2 > box.width || b.y2 > box.height;
            const under = rects.some(o => b.x1 < o.x2 && o.x1 < b.x2 && b.y1 < o.y2 && o.y1 < b.y2);
            (cut || under ? covered : clear).push(e);
        });
        cy.batch(() => {
            cy.collection(clear).filter(".gg-covered").removeClass("gg-covered");
            cy.collection(covered).filter(e => !e.hasClass("gg-covered")).addClass("gg-covered");
        });
    }

    function coverSoon(cy) {
        if (cy.__ggCover) return;
        cy.__ggCover = true;
        cy.container().ownerDocument.defaultView.requestAnimationFrame(() => {
            cy.__ggCover = false;
            coverNames(cy);
        });
    }

    // (12) at most once a frame however many events ask for it, after the frame that draws what changed
    function tuckSoon(cy) {
        if (cy.__ggTuck) return;
        cy.__ggTuck = true;
        cy.container().ownerDocument.defaultView.requestAnimationFrame(() => setTimeout(() => {
            cy.__ggTuck = false;
            tuckNames(cy);
        }, 0));
    }

    function hoverNames(cy) {
        // a node under the pointer shows its moves' names as a selection does, where they are clear (revealNames):
        // after a double-click the pointer rests on the node; a move under the pointer shows its own name
        cy.on("mouseover", "node", e => e.target.connectedEdges().addClass("gg-near"));
        cy.on("mouseout", "node", e => e.target.connectedEdges().removeClass("gg-near"));
        cy.on("mouseover", "edge", e => e.target.addClass("gg-hover"));
        cy.on("mouseout", "edge", e => e.target.removeClass("gg-hover"));
        // (the pointer leaving the canvas over a node, into the page, sends Cytoscape no mouseout)
        cy.container().addEventListener("mouseleave", () => cy.edges(".gg-hover, .gg-near").removeClass("gg-hover gg-near"));
    }

    function edgesOnViewport(cy) {
        const renderer = cy.renderer();
        if (renderer) renderer.hideEdgesOnViewport = cy.nodes().length >= CONFIG.large;
    }

    // (15) the next ring, as the server sent it: parsed once per text
    const AHEAD_WAIT_MS = 20000;  // a ring shown whose answer has not come by then is looked at again (dropAhead)
    let aheadText = null, aheadData = null;
    function readAhead() {
        let el = null;
        try { el = window.parent.document.getElementById("gg-ahead"); } catch (e) { return null; }
        const text = el ? el.textContent : "";
        if (text !== aheadText) {
            aheadText = text;
            try { aheadData = text ? JSON.parse(text) : null; } catch (e) { aheadData = null; }
        }
        return aheadData;
    }

    function aheadPayload(cy) {
        const data = readAhead();
        if (!data || !data.ring || data.stale || cy.__ggAhead) return null;
        const focus = cy.nodes("[_focus]");
        if (!focus.length || focus.id() !== data.focus) return null;
        if (!data.count || cy.nodes().length !== data.count[0] || cy.edges().length !== data.count[1]) return null;
        return data;
    }

    // (15) A double-click on `node`: its ring added at once, each new node gliding out of it to its place. `given`: a
    // grouped canvas's collapse of `node` (its ring in the payload's `shut`, collapseAhead), shown the same way.
    function expandAhead(cy, node, given) {
        const data = aheadPayload(cy);
        const ring = data && (given || data.ring[node.id()]);
        if (!ring || (ring.n.length === 0 && ring.e.length === 0 && !(ring.gone || []).length &&
                      !Object.keys(ring.d || {}).length)) return false;
        const own = ring.own || {}, places = ring.p || {};
        const from = { ...node.position() };
        const fresh = ring.n.filter(id => cy.getElementById(id).length === 0);
        // (a grouped canvas's ring) what it takes off: hidden now (class gg-gone), taken off by the answer
        const gone = cy.collection();
        (ring.gone || []).forEach(id => { gone.merge(cy.getElementById(id)); });
        // without the server's places (a layout made in the browser), on a ring around the node: its answer's
        // force layout places them
        const spread = (i, n) => ({ x: from.x + 90 * Math.cos(Math.PI / 2 + 2 * Math.PI * i / Math.max(n, 1)),
                                    y: from.y + 90 * Math.sin(Math.PI / 2 + 2 * Math.PI * i / Math.max(n, 1)) });
        const target = {};
        fresh.forEach((id, i) => { const p = places[id]; target[id] = p ? { x: p[0], y: p[1] } : spread(i, fresh.length); });
        const expansion = given ? beginExpansion(cy, node) : cy.__ggExpansion && cy.__ggExpansion.node === node.id()
            ? cy.__ggExpansion : beginExpansion(cy, node);
        const keep = expansion.seen.filter(n => n.inside());
        const added = [];
        fresh.forEach(id => added.push({ group: "nodes", data: own[id] || data.nodes[id], position: { x: from.x, y: from.y },
                                         classes: "gg-ahead highlight" }));
        const present = new Set(fresh);
        ring.e.forEach(id => {
            const d = own[id] || data.edges[id];
            if (!d || cy.getElementById(id).length) return;
            const ends = [d.source, d.target];
            if (!ends.every(e => present.has(e) || (cy.getElementById(e).length && !gone.has(cy.getElementById(e)))))
                return;
            added.push({ group: "edges", data: d, classes: "gg-ahead" });
        });
        if (!added.length && !gone.length && !Object.keys(ring.d || {}).length) return false;
        // The component sends the expansion of its last selected node (150 ms after the double-click, which it reads
        // from the selections it saw): the node is made the one selected, so that what the server expands is what
        // is shown here (a double-click that moved the selection onto it left the component's last selection empty).
        if (!(node.selected() && cy.$(":selected").length === 1)) {
            cy.$(":selected").unselect();
            node.select();
        }
        // (a grouped canvas's ring) the data of what stays that the answer changes (a cluster's count, a move's
        // bend), and the places of what it moves: kept as they were, should no answer come (dropAhead)
        const undo = { data: {}, places: {} };
        const moved = ring.m || {};
        cy.batch(() => {
            gone.addClass("gg-gone");
            Object.entries(ring.d || {}).forEach(([id, d]) => {
                const ele = cy.getElementById(id);
                if (!ele.length) return;
                undo.data[id] = { ...ele.data() };
                ele.data(local(cy, d));
            });
        });
        const shown = (cy.__ggAdd || cy.add.bind(cy))(local(cy, added));  // (not the answer's: replaceWith)
        // (where each node shown ahead, or moved, goes: an answer that places them there moves nothing, and the view
        // made for them stays, expansionView)
        const goesTo = { ...target };
        Object.entries(moved).forEach(([id, p]) => { goesTo[id] = { x: p[0], y: p[1] }; });
        const pending = { centre: node.id(), ids: new Set(shown.map(e => e.id())), undo: undo, places: goesTo,
                          ask: expansion.ask, timer: win(cy).setTimeout(() => dropAhead(cy), AHEAD_WAIT_MS) };
        cy.__ggAhead = pending;
        node.connectedEdges().addClass("highlight");
        Object.entries(moved).forEach(([id, p]) => {
            const n = cy.getElementById(id);
            if (!n.length || present.has(id)) return;
            undo.places[id] = { ...n.position() };
            n.animate(local(cy, { position: { x: p[0], y: p[1] } }), local(cy, { duration: GLIDE_MS }));
        });
        const nodes = shown.nodes();
        // While they start on the node and glide out of it, the new nodes take no pointer events (Cytoscape's
        // `events: no`): a click there goes to the node expanded under them. Cytoscape counts clicks, not what they
        // land on (multiClickDebounceTime, 250 ms), so a click that selects a node and a double-click on it at once
        // make its double-click come on the second click, and the third landed on a new node drawn over it: that
        // node was selected, the component (which expands its last selected node, nodeActions.js) asked the server
        // to expand a position it does not hold, and no answer came (the ring stayed provisional until
        // AHEAD_WAIT_MS). The vendored component stacks an expansion's nodes too, but only once the answer came.
        nodes.style("events", "no");
        win(cy).setTimeout(() => nodes.removeStyle("events"), GLIDE_MS + 20);
        nodes.forEach(n => n.animate(local(cy, { position: target[n.id()] }), local(cy, { duration: GLIDE_MS })));
        // The expansion's view, once they stand at their places and the panel is steady: the server's answer, come before
        // or after, changes it only where it placed something elsewhere (hook's layout, `ggExpand`).
        expansionView(cy, expansion.ask, GLIDE_MS + 20, () => {
            // (a cluster opened: its positions stand where it was; after the answer, its nodes are no longer gg-gone)
            const mine = nodes.filter(n => n.inside());
            const centre = gone.has(node) || !node.inside() ? mine : node;
            if (!centre.length) return;
            const near = centre.closedNeighborhood().nodes().not(".gg-gone");
            // (what was in sight with the node's whole neighbourhood first, as a tap's reveal had it: at 940 px with boards
            // on, the node's older neighbours were left under the canvas's bottom edge)
            const seen = keep.filter(n => n.inside()).not(".gg-gone");
            const wide = [seen.union(centre).union(mine).union(near), near, centre.union(mine)];
            const lift = expansionLift(cy);
            const rest = [wide[0], near].concat(boardsOn(cy) ? [[near, PANEL_SHARE]] : [], [centre.union(mine), centre]);
            reveal(cy, comfortFirst(cy, wide, centre, mine.union(near), rest, lift), lift);
        });
        return true;
    }

    // (15) No answer came as an expansion (the page ran the canvas anew instead, or the server added nothing): what
    // was shown ahead stays if the server's canvas holds it (the ring it sent since counts what is drawn), else it
    // is taken off. `refused`: the server said it does not hold the node (#gg-refused): all of it is taken back.
    function dropAhead(cy, refused) {
        const pending = cy.__ggAhead;
        if (!pending) return;
        cy.__ggAhead = null;
        const data = refused ? null : aheadPayload(cy);
        if (data) { cy.elements(".gg-ahead").removeClass("gg-ahead"); cy.elements(".gg-gone").remove(); return; }
        if (cy.__ggViewAsk === pending.ask) askView(cy);  // (what the expansion's view was for is taken back)
        cy.batch(() => {
            cy.elements(".gg-ahead").remove();
            cy.elements(".gg-gone").removeClass("gg-gone");
            Object.entries(pending.undo ? pending.undo.data : {}).forEach(([id, d]) => {
                const ele = cy.getElementById(id);
                if (ele.length) ele.data(d);
            });
            Object.entries(pending.undo ? pending.undo.places : {}).forEach(([id, p]) => {
                const n = cy.getElementById(id);
                if (n.length) { n.stop(); n.position(p); }
            });
        });
    }

    // (15) The answer to a double-click on a grouped canvas (the component adds an expansion's elements to what it
    // drew): it replaces what was drawn. Elements drawn and in the answer take its data, those not in it are taken
    // off (a cluster opened, its bundled moves), and the rest is handed back for the component to add. The
    // component was mounted anew for it before (a new frame: seconds).
    const CLUSTER_MARK = "\u001e";  // (canvas/clusters.py) starts every cluster's and bundled move's id
    function groupedAnswer(cy, entries) {
        const id = e => e && e.data && e.data.id;
        return entries.some(e => typeof id(e) === "string" && id(e).startsWith(CLUSTER_MARK)) ||
            cy.elements().some(e => e.id().startsWith(CLUSTER_MARK));
    }

    function replaceWith(cy, entries) {
        const pending = cy.__ggAhead;
        if (pending) { win(cy).clearTimeout(pending.timer); cy.__ggAhead = null; cy.__ggSettled = pending; }
        const given = new Set(entries.map(e => e && e.data && e.data.id));
        const rest = [];
        cy.batch(() => {
            entries.forEach(entry => {
                const ele = entry && entry.data ? cy.getElementById(entry.data.id) : cy.collection();
                if (!ele.length) { rest.push(entry); return; }
                ele.data(entry.data);
                ele.removeClass("gg-ahead gg-gone");
            });
            const gone = cy.elements().filter(e => !given.has(e.id()));
            gone.unselect();
            gone.remove();
        });
        return rest;
    }

    function settleAhead(cy, entries) {
        const pending = cy.__ggAhead;
        if (!pending) return entries;
        win(cy).clearTimeout(pending.timer);
        cy.__ggAhead = null;
        cy.__ggSettled = pending;  // (the answer's layout moves nothing where it places them as the ring did)
        const given = new Set();
        const rest = [];
        cy.batch(() => {
            entries.forEach(entry => {
                const id = entry && entry.data && entry.data.id;
                if (id !== undefined && pending.ids.has(id)) {
                    given.add(id);
                    const ele = cy.getElementById(id);
                    ele.data(entry.data);
                    ele.removeClass("gg-ahead");
                } else rest.push(entry);
            });
            cy.elements(".gg-ahead").filter(e => !given.has(e.id())).remove();
        });
        return rest;
    }

    // (15) A double-click the server refused (#gg-refused's count grew: it does not hold the node): what was shown
    // ahead is taken back at once, not after AHEAD_WAIT_MS.
    let refusedText = null;
    function watchRefused() {
        let el = null;
        try { el = window.parent.document.getElementById("gg-refused"); } catch (e) { return; }
        const text = el ? el.textContent : null;
        if (text === null || text === refusedText) return;
        const first = refusedText === null;
        refusedText = text;
        if (first) return;
        canvases().forEach(cy => {
            if (cy.__ggAhead) { win(cy).clearTimeout(cy.__ggAhead.timer); dropAhead(cy, true); }
        });
    }

    function win(cy) {
        return cy.container().ownerDocument.defaultView;
    }

    // (15) "Collapse what it expanded", from the info panel: what the server will take off, taken off at once.
    function collapseAhead(cy) {
        const doc = cy.container().ownerDocument;
        doc.addEventListener("click", e => {
            const button = e.target && e.target.closest && e.target.closest('[data-action-name="collapse"]');
            if (!button) return;
            const node = cy.$(":selected").first();  // the element the component sends the action for
            const data = node.length && node.isNode() ? aheadPayload(cy) : null;
            if (data && data.grouped) {  // a grouped canvas: the collapse's ring (the cluster closed again, or what
                let ring = data.shut && data.shut[node.id()];  // it expanded taken out of the clusters), as a ring
                if (typeof ring === "string") ring = data.closing && data.closing[ring];
                if (ring) expandAhead(cy, node, ring);
                // (its cluster closed: the panel no longer shows a node hidden; after the component's own click
                // handler, which sends the collapse for the node selected)
                if (node.hasClass("gg-gone")) win(cy).setTimeout(() => node.unselect(), 0);
                return;
            }
            const gone = data && data.collapse && data.collapse[node.id()];
            if (!gone || !gone.length) return;
            cy.batch(() => gone.forEach(id => cy.getElementById(id).remove()));
        }, true);
    }

    // 14. The info panel follows the search: the one position found becomes the node selected (the panel shows it,
    // not the node selected before; the component re-selects that one when the answer's elements come), and once the
    // panel has opened (its width steady, as revealOnTap waits) it is brought into the middle of the clear area
    // again; a filter's several matches leave nothing selected (the panel closes). Then showFound.
    // (14) The nodes of a shortest path of drawn moves from the focus to the one position `found`, in order (the focus
    // first); null for several, or where the moves drawn hold none. O(V + E log V) once per search.
    function pathTo(cy, found) {
        const focus = cy.nodes("[_focus]");
        if (found.length !== 1 || focus.length !== 1 || focus.same(found)) return null;
        for (const directed of [true, false]) {
            const route = cy.elements().aStar({ root: focus, goal: found, directed });
            if (route.found) return route.path.nodes();
        }
        return null;
    }

    function selectFound(cy, found, path) {
        const one = found.length === 1;
        cy.$(":selected").not(one ? found : cy.collection()).unselect();
        showFound(cy, found, path);
        if (!one || found.selected()) return;
        found.select();
        const doc = cy.container().ownerDocument, win = doc.defaultView, until = Date.now() + 2000;
        let last = -1, steady = 0;
        const look = () => {
            const r = overlayRect(doc, "infopanel"), w = r ? r.width : -1;
            steady = w > 1 && Math.abs(w - last) < 0.5 ? steady + 1 : 0;
            last = w;
            if (steady < 3) { if (Date.now() < until) win.requestAnimationFrame(look); return; }
            if (found.selected() && found.inside()) showFound(cy, found, path && path.filter(n => n.inside()));
        };
        win.requestAnimationFrame(look);
    }

    // (16, 17) An option clicked in the Layout or the Colour by box: the canvas laid out, or coloured, from what was
    // sent ahead, at once.
    let chosenAt = 0;
    function chooseLayout(e) {
        const option = e.target && e.target.closest && e.target.closest('[role="option"]');
        const list = option && option.closest('[role="listbox"]');
        const box = list && list.getAttribute("aria-label");
        if (box !== "Layout" && box !== "Colour by") return;
        if (Date.now() - chosenAt < 400) return;  // (the pointer's up and its click: one choice)
        chosenAt = Date.now();
        const text = option.textContent.trim();
        canvases().forEach(cy => (box === "Layout" ? switchLayout : switchColour)(cy, text));
    }

    function switchColour(cy, text) {
        const data = readAhead(), styles = data && data.styles;
        const focus = cy.nodes("[_focus]");
        if (!styles || !focus.length || focus.id() !== data.focus) return;
        const name = Object.keys(styles.names).find(n => styles.names[n] === text);
        const now = styles.sheets[styles.current], next = name && name !== styles.current ? styles.sheets[name] : null;
        if (!next || !swapRules(cy, now, next)) return;
        styles.current = name;
    }

    // (17, 19) Our rules `now` in the sheet the component set last (its defaults, ours, its own last) replaced by
    // `next`, as the server's answer will set the sheet; false where `now` is not found there (nothing set).
    function swapRules(cy, now, next) {
        if (!Array.isArray(cy.__ggSheet) || !now || !now.length || !next) return false;
        const sheet = cy.__ggSheet, first = JSON.stringify(now[0]), whole = JSON.stringify(now);
        let at = -1;
        for (let i = 0; i + now.length <= sheet.length && at < 0; i++) {
            if (JSON.stringify(sheet[i]) === first && JSON.stringify(sheet.slice(i, i + now.length)) === whole) at = i;
        }
        if (at < 0) return false;
        cy.style(local(cy, sheet.slice(0, at).concat(next, sheet.slice(at + now.length))));
        return true;
    }

    // (19) "Boards on the nodes" turned on (`on`) or off: the canvas drawn with its boards the other way from what the
    // server sent ahead, at once: the nodes' data (a key a node no longer has, as its picture, taken off), the sheet
    // under the current colouring, and the layout (16's).
    function switchBoards(cy, on) {
        const data = aheadPayload(cy);
        const shape = data && data.boards, styles = data && data.styles;
        if (!shape || shape.on !== on || !styles || !styles.boards) return;
        const now = styles.sheets[styles.current], next = styles.boards[styles.current];
        if (!now || !next) return;
        data.stale = true;  // its rings and layouts were made with the boards as they were
        cy.batch(() => Object.entries(shape.nodes).forEach(([id, d]) => {
            const node = cy.getElementById(id);
            if (!node.length) return;
            const drop = Object.keys(node.data()).filter(k => !(k in d) && k !== "id");
            if (drop.length) node.removeData(drop.join(" "));
            node.data(local(cy, d));
        }));
        if (swapRules(cy, now, next)) [styles.sheets, styles.boards] = [styles.boards, styles.sheets];
        glyphs(cy, true);
        layOutFrom(cy, shape);
    }

    // (19) A click on the Boards box, in the page (its hidden input is labelled with the box's text). Streamlit's
    // checkbox (React Aria) sends no change event and sets its state after the click: read in the click's capture
    // phase, the input still holds the state before, so the boards go to the other one.
    let boardsAt = 0;
    function chooseBoards(e) {
        const holder = e.target && e.target.closest && e.target.closest('[data-testid="stCheckbox"]');
        const box = holder && holder.querySelector('input[type="checkbox"]');
        if (!box || box.disabled || box.getAttribute("aria-label") !== "Boards on the nodes") return;
        if (Date.now() - boardsAt < 400) return;  // (one click)
        boardsAt = Date.now();
        const on = !box.checked;
        canvases().forEach(cy => switchBoards(cy, on));
    }

    function canvases() {
        const found = [];
        try {
            window.parent.document.querySelectorAll(FRAMES).forEach(frame => {
                const box = frame.contentDocument && frame.contentDocument.getElementById("cy");
                const cy = box && box._cyreg && box._cyreg.cy;
                if (cy && cy.scratch("_gg")) found.push(cy);
            });
        } catch (e) { /* another origin */ }
        return found;
    }

    function switchLayout(cy, text) {
        const data = aheadPayload(cy);
        const all = data && data.layouts;
        if (!all) return;
        const name = Object.keys(all.names).find(n => all.names[n] === text);
        const shape = name && name !== all.current ? all.shapes[name] : null;
        if (!shape) return;
        data.stale = true;  // its rings' places were made for the layout before: the next ring comes with the answer
        layOutFrom(cy, shape);
    }

    // (16, 19) The canvas laid out from a shape sent ahead: the moves' data (bends, names' places) and the bands' names
    // set, the layout run (fitted readably, 7); the server's answer of the same kind is then skipped.
    function layOutFrom(cy, shape) {
        cy.batch(() => {
            Object.entries(shape.edges).forEach(([id, d]) => {
                const edge = cy.getElementById(id);
                if (edge.length) edge.data(local(cy, d));
            });
            cy.nodes("[_focus]").data("_rows", shape.rows);
        });
        const pending = { name: shape.options.name };
        pending.timer = win(cy).setTimeout(() => { if (cy.__ggLaidOut === pending) cy.__ggLaidOut = null; }, AHEAD_WAIT_MS);
        cy.__ggLaidOut = pending;
        cy.stop();
        cy.layout(local(cy, { ...shape.options, ggLaidOut: true })).run();
    }

    function hook(cy) {
        if (cy.scratch("_gg")) return;
        neutralHighlight(cy);
        namesAsText(cy);
        tidyPanel(cy);
        retitle(cy);
        edgesOnViewport(cy);
        wheelGuard(cy);
        revealOnTap(cy);
        // Once per batch of additions or removals, not once per element; after the frame that draws them
        // (until then each bounding box asked for costs as much as the layout's own: drawingBox).
        let counting = false;
        const win = cy.container().ownerDocument.defaultView;
        cy.on("add remove", () => {
            if (counting) return;
            counting = true;
            win.requestAnimationFrame(() => setTimeout(() => {
                counting = false; edgesOnViewport(cy); zoomFloor(cy); hideSpecks(cy, true); tuckSoon(cy);
            }, 0));
        });
        hoverNames(cy);
        rowNames(cy);
        // (15) before the component's own double-click handler sends the event (it waits 150 ms)
        // (3) and from the double-click on, the view is the expansion's: without a ring shown ahead, the node is put
        // beside the opened panel as a tap's reveal would (a node with nothing to add gets no answer), and the server's
        // answer, when it comes, makes the expansion's view (its layout's `ggExpand`)
        cy.on("dblclick dbltap", "node", e => {
            const node = e.target, expansion = beginExpansion(cy, node);
            if (expansion.handled) return;  // (the same double-click's other event)
            expansion.handled = true;
            if (expandAhead(cy, node)) return;
            expansionView(cy, expansion.ask, 0, () => {
                if (!node.inside()) return;
                const near = node.closedNeighborhood().nodes(), seen = expansion.seen.filter(n => n.inside());
                reveal(cy, comfortFirst(cy, [seen.union(near), near], node, near,
                                        [seen.union(near), near].concat(boardsOn(cy) ? [[near, PANEL_SHARE]] : [], [node])));
            });
        });
        collapseAhead(cy);
        const add = cy.add.bind(cy);
        cy.__ggAdd = add;  // (15) what is shown ahead is added as it is, not taken for an answer
        cy.add = function (eles) {
            if (cy.__ggInJson) return add(eles);  // (cy.json's own: what it does not hold yet, not an answer to settle)
            if (Array.isArray(eles) && eles.length && groupedAnswer(cy, eles)) {  // a grouped canvas's answer (15)
                return add(replaceWith(cy, eles));
            }
            if (cy.__ggAhead && Array.isArray(eles)) {  // the component adds an expansion's answer: settled (15)
                eles = settleAhead(cy, eles).filter(entry => !(entry && entry.data && entry.data.id !== undefined &&
                                                                cy.hasElementWithId(entry.data.id)));
            }
            return add(eles);
        };
        // (15) an answer that came as the whole canvas (the component replaces its elements when the render was not
        // an expansion's): what it holds of what was shown ahead is settled, the rest it took off
        const json = cy.json.bind(cy);
        cy.json = function (obj) {
            // Cytoscape's json() adds what it does not hold through cy.add: on a grouped canvas that was taken for an
            // answer (replaceWith), which took off everything else (a cluster closed again left an empty canvas)
            cy.__ggInJson = true;
            let out;
            try { out = json.apply(cy, arguments); } finally { cy.__ggInJson = false; }
            if (cy.__ggAhead && obj && obj.elements) {
                win.clearTimeout(cy.__ggAhead.timer);
                cy.__ggAhead = null;
                cy.elements(".gg-ahead").removeClass("gg-ahead");
                cy.elements(".gg-gone").removeClass("gg-gone");
            }
            return out;
        };
        cy.on("layoutstop dragfree", () => tuckSoon(cy));
        cy.on("layoutstop dragfree add remove", () => captionsSoon(cy));  // (20) once the nodes are still
        cy.on("viewport resize layoutstop add remove position select unselect", () => coverSoon(cy));
        // (the info panel opens over a transition after a selection: looked at again once it has)
        cy.on("select unselect", () => win.setTimeout(() => coverSoon(cy), 400));
        cy.on("data", "edge", () => tuckSoon(cy));  // a move's bend changed: its line and name moved
        cy.on("select unselect class", "edge", () => revealSoon(cy));  // (12) a name revealed where it is clear
        cy.__ggRestyled = () => tuckSoon(cy);  // a new sheet (move names turned on or off): wrapStyle
        cy.on("zoom", () => hideSpecks(cy));
        cy.on("zoom layoutstop add remove", () => smallSoon(cy));  // (21)
        // a large canvas's newly selected node and highlighted moves (the component highlights them on select)
        cy.on("select", () => { if (cy.nodes().length >= CONFIG.large) setTimeout(() => hideSpecks(cy, true), 0); });
        cy.on("dragfree", "node", () => zoomFloor(cy));
        cy.on("add remove position style", () => { cy.__ggBox = null; });  // drawingBox's, out of date
        const layoutAsIs = cy.layout.bind(cy);
        const layout = options => { resetCaptions(cy); return layoutAsIs(options); };  // (20) placed anew once still
        const skipped = { stop() { return this; }, on() { return this; }, one() { return this; }, promiseOn() { return Promise.resolve(); } };
        skipped.run = function () { return this; };

        // A fit of the whole canvas (the component's, on its frame's resize) is readable (7); the Fit
        // button's shows everything, as asked.
        // (The button's fit runs debounced, a few hundred ms after the click: the click is remembered a while.)
        let asked = 0;
        const fitButton = cy.container().ownerDocument.getElementById("viewbarFit");
        if (fitButton) fitButton.addEventListener("click", () => { asked = Date.now(); }, true);
        cy.getFitViewport = function (eles, padding) {
            const whole = eles === undefined || typeof eles === "number";
            if (whole && Date.now() - asked < 2000) { asked = 0; return buttonFit(cy, eles, padding); }
            if (whole) return readableViewport(cy, typeof eles === "number" ? eles : padding);
            return clearFitViewport(cy, eles, padding);
        };

        cy.layout = function (options) {
            options = options || {};
            // The component's expansion animation: a force layout pinning only the expanded node.
            // The server's own layout for the expansion follows at once and places the new nodes.
            if (options.name === "fcose" && options.fixedNodeConstraint) return skipped;
            if (options.ggExpand === undefined && options.ggFind) {
                // A search (14): nothing moves; what was found is brought to the middle of the clear area.
                const found = new Set(options.ggFind);
                const show = () => selectFound(cy, cy.nodes().filter(n => found.has(n.id())));
                // A grouped canvas whose search added a path comes as a whole canvas (`ggRegrouped`: its clusters grew,
                // or new ones came, placed anew): its places are taken, without a fit (which ended in the default view,
                // 7, round the page's position: the match was ringed out of sight), and then what was found is shown.
                if (!options.ggRegrouped) { win.setTimeout(show, 0); return skipped; }
                const run = layout({ ...options, fit: false });
                run.one("layoutstop", () => { zoomFloor(cy); show(); });
                return run;
            }
            if (options.ggExpand === undefined && options.fit && cy.__ggLaidOut && !options.ggLaidOut &&
                cy.__ggLaidOut.name === options.name) {
                // (16) the server's answer to a layout already switched to ahead: the canvas is there
                win.clearTimeout(cy.__ggLaidOut.timer);
                cy.__ggLaidOut = null;
                return skipped;
            }
            if (options.ggExpand === undefined) {
                if (!options.fit) return layout(options);
                // A layout of the whole canvas: fitted readably once it stops (7).
                cy.__ggLayout = options.name;
                const run = layout({ ...options, fit: false });
                run.one("layoutstop", () => { zoomFloor(cy); readableView(cy, options.padding || 30); });
                return run;
            }
            // An expansion: what is in sight now, the expanded node and what it brought stay in sight.
            // The bends and names of moves already drawn, placed anew around what the expansion brought: the
            // component added the new elements and left the others' data as it was (canvas/layout.py: grow_layout).
            if (options.ggData) cy.batch(() => Object.entries(options.ggData).forEach(([id, data]) => {
                const edge = cy.getElementById(id);
                if (edge.length) edge.data(local(cy, data));
            }));
            const fresh = new Set(options.ggNew || []);
            const centre = cy.getElementById(options.ggExpand);
            // (3, 15) The view after an expansion is made once. Where this answer places every node drawn where it
            // stands (or, shown ahead, where it glides to) and brings nothing that was not shown ahead, the view made
            // for what was shown ahead (expandAhead's expansionView, made or still waiting for the panel) is the one:
            // nothing moves again, whether the answer came before or after the panel was steady. Else the answer's
            // layout makes it, once it stops and the panel is steady; what is kept in sight is what was in sight at
            // the double-click.
            const settled = cy.__ggSettled && cy.__ggSettled.centre === options.ggExpand ? cy.__ggSettled : null;
            cy.__ggSettled = null;
            const expansion = cy.__ggExpansion && cy.__ggExpansion.node === options.ggExpand ? cy.__ggExpansion : null;
            const given = options.name === "preset" && options.positions && typeof options.positions === "object"
                ? options.positions : null;
            const stays = !!(settled && given && !options.ggFind && [...fresh].every(id => settled.ids.has(id)) &&
                cy.nodes().every(n => {
                    const to = given[n.id()], at = settled.places[n.id()] || n.position();
                    return !to || (Math.abs(to.x - at.x) < 1 && Math.abs(to.y - at.y) < 1);
                }));
            let keep = (expansion ? expansion.seen.filter(n => n.inside()) : cy.nodes().filter(n => inSight(cy, n)))
                .filter(n => !fresh.has(n.id()));
            keep = keep.union(centre).union(cy.nodes().filter(n => fresh.has(n.id())));
            // (asked for anew: a view still waiting, the one for what was shown ahead or the double-click's without a
            // ring, is not made)
            const mine = stays ? 0 : askView(cy);
            cy.scratch("_ggAnswerMoves", !stays);  // (for the tests: whether this answer makes the view anew)
            const run = layout(options);
            run.one("layoutstop", () => {
                zoomFloor(cy);
                if (options.ggFind) {  // a search's path (14): what it found, in the middle, with the path to it
                    const found = new Set(options.ggFind), nodes = cy.nodes().filter(n => found.has(n.id()));
                    selectFound(cy, nodes, pathTo(cy, nodes));
                    return;
                }
                if (stays) return;
                // what was in sight, if it fits at a readable zoom; else the node expanded and all its neighbours;
                // else it and what it brought; else it alone
                expansionView(cy, mine, 0, () => {
                    if (!centre.inside()) return;
                    const near = centre.closedNeighborhood().nodes();
                    const panel = overlayRect(cy.container().ownerDocument, "infopanel");
                    const brought = cy.nodes().filter(n => fresh.has(n.id())), lift = expansionLift(cy);
                    const kept = keep.filter(n => n.inside());
                    reveal(cy, comfortFirst(cy, [kept, near, centre.union(brought)], centre, brought.union(near),
                                            [kept, near].concat(panel && panel.width > 100 && boardsOn(cy) ? [[near, PANEL_SHARE]] : [],
                                                                [centre.union(brought), centre]), lift), lift);
                });
            });
            return run;
        };
        // The first layout's fit ran before this hook (the hook comes within a tenth of a second of
        // the canvas, before anyone can move it): fit again, into the clear area and readably (7).
        zoomFloor(cy);
        readableView(cy, 30);
        hideSpecks(cy, true);
        tuckNames(cy);
        captionsSoon(cy);  // (20)
        cy.scratch("_ggDefaultView", () => readableViewport(cy, 30));  // for the tests: the view (7) as of now
        cy.scratch("_gg", true);
    }

    const FRAMES = 'iframe[src*="streamlit_cytoscape"]';
    const watched = new Set();  // frames whose #cy is not there yet (9)
    let watching = 0;
    function watch(frame) {
        if (watched.has(frame) || frame.__ggWatched) return;
        frame.__ggWatched = true;
        frame.__ggUntil = Date.now() + 60000;  // each frame's own deadline: one watch may outlive another
        watched.add(frame);
        if (watching) return;
        watching = setInterval(() => {
            watched.forEach(f => {
                let done = !f.isConnected || Date.now() > f.__ggUntil;
                try { done = trapInstance(f.contentDocument) || done; } catch (e) { done = true; }
                if (done) watched.delete(f);
            });
            if (watched.size === 0) { clearInterval(watching); watching = 0; }
        }, 5);
    }

    function scan() {
        let doc;
        try { doc = window.parent.document; } catch (e) { return; }
        doc.querySelectorAll(FRAMES).forEach(frame => {
            try {
                watch(frame);
                const cy = frame.contentDocument && frame.contentDocument.getElementById("cy");
                const instance = cy && cy._cyreg && cy._cyreg.cy;
                if (instance && instance.nodes().length > 0) hook(instance);
            } catch (e) { /* a frame still loading, or from elsewhere */ }
        });
    }

    scan();
    setInterval(() => { scan(); watchRefused(); }, 100);
    try {  // (16) the Layout box's options, in the page
        window.parent.document.addEventListener("pointerup", chooseLayout, true);
        window.parent.document.addEventListener("click", chooseLayout, true);
        window.parent.document.addEventListener("click", chooseBoards, true);  // (19)
    } catch (e) { /* the page of another origin */ }
    try {  // (9) a new frame is watched from the moment it is in the page, not at the next scan
        new MutationObserver(() => window.parent.document.querySelectorAll(FRAMES).forEach(watch))
            .observe(window.parent.document.body, { childList: true, subtree: true });
    } catch (e) { /* the page of another origin: the scan alone */ }
})();
