/* meloch.rl._obsc: the observation encoder of meloch.rl, in C.
 *
 * Why C: per decision, the PettingZoo env encodes the deciding seat's observation. In Python (the
 * engine's ``glance``, then ``observe.encode_py``: struct packing, dictionary and numpy calls, with
 * the caches cold after each ``apply``) that cost about half the engine's own time per decision.
 * ``observe.py`` keeps the Python implementation: it is the fallback when this module is not built
 * (no compiler at install time, or ``MELOCH_RL_PURE=1``) and the reference ``tests/rl`` compares
 * against at every step, on both paths (``docs/rl.md``, "Throughput").
 *
 * ``Encoder(**layout)`` keeps each seat's vector in a float buffer of its own and, for each block
 * computed from a glance part, the part it was last written from (a strong reference, so identity
 * means an unchanged value: ``glance`` hands back unchanged parts as the same objects, and every
 * part is immutable). ``encode(g)`` rewrites the blocks whose part is not the same object (each from
 * nothing, as ``observe.encode_full`` builds it), the small ones (decision, global, private) every
 * time, and returns the vector as a new numpy array. ``observe(state, seat)`` is
 * ``encode(glance(state, seat))``: it calls the engine's ``glance`` and encodes the result. Like
 * every shell, this module reads the engine only through its public protocol: it never reads the
 * state, only the ``Glance`` the engine hands out for the seat (the engine alone decides what a seat
 * may see). The arithmetic is the Python encoder's: a double computed as Python computes it
 * (``int / int`` is a correctly rounded double division; sums are accumulated in double in the same
 * order), then rounded to float32 as ``struct`` and numpy do.
 *
 * The glance's fields are read through the member descriptors' slot offsets of the exact msgspec
 * types given at construction (``Glance``, ``ScytheGlance``, ``ExpGlance``, ``CombatView``: the
 * engine's public glance types; the types are checked before every read, another type is a
 * TypeError).
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <string.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>
#define FIELDS_WHO "_obsc"
#include "../engine/_fields.h"

/* ------------------------------------------------------------------ struct fields by offset */

enum { G_SEAT, G_DECIDER, G_KIND, G_TURN, G_STEP, G_ACTIVE, G_TURN_LIMIT, G_STARS, G_HOME_TURNS,
       G_STALEMATE_OPEN, G_MAP_TOKEN_SUPPLY, G_MAP_TOKEN_TRASH, G_DECKS, G_COMBAT_DISCARD, G_TRACK,
       G_MELOCH_ROW, G_MAP_TOKENS, G_REVEALED, G_LAKES, G_CORRUPTION, G_SEATS, G_COMBAT, G_KNOWN, G_N };
static const char *G_NAMES[G_N] = {
    "seat", "decider", "kind", "turn", "step", "active", "turn_limit", "stars", "home_turns",
    "stalemate_open", "map_token_supply", "map_token_trash", "decks", "combat_discard", "track",
    "meloch_row", "map_tokens", "revealed", "lakes", "corruption", "seats", "combat", "known"};

enum { S_POWER, S_POPULARITY, S_COINS, S_COMBAT_CARDS, S_COMBAT_WINS, S_SECTION, S_STARS_UNPLACED,
       S_ENCOUNTERS, S_MAP_TOKENS, S_WORKERS_ON_MAT, S_CHARACTER, S_MECHS, S_WORKERS, S_STRUCTURES,
       S_RESOURCES, S_COMBAT_CARD_IDS, S_N };
static const char *S_NAMES[S_N] = {
    "power", "popularity", "coins", "combat_cards", "combat_wins", "section", "stars_unplaced",
    "encounters", "map_tokens", "workers_on_mat", "character", "mechs", "workers", "structures",
    "resources", "combat_card_ids"};

enum { E_POWER, E_GUILE, E_COINS, E_COMBAT_CARDS, E_COMBAT_WINS, E_MAP_TOKENS, E_WORKERS, E_HAND,
       E_HERO_TRASHED, E_CORRUPTION, E_LOC, E_TOKEN, E_HAND_CARDS, E_ACTIVE, E_SOLVED, E_UPGRADED,
       E_MELDED, E_COMBAT_CARD_IDS, E_N };
static const char *E_NAMES[E_N] = {
    "power", "guile", "coins", "combat_cards", "combat_wins", "map_tokens", "workers", "hand",
    "hero_trashed", "corruption", "loc", "token", "hand_cards", "active", "solved", "upgraded",
    "melded", "combat_card_ids"};

enum { C_ATTACKER, C_DEFENDER, C_REVEALED, C_TUCKED, C_DIAL_0, C_DIAL_1, C_TOTALS, C_N };
static const char *C_NAMES[C_N] = {"attacker", "defender", "revealed", "tucked", "dial_0", "dial_1", "totals"};

static PyObject *field_checked(const Fields *f, PyObject *o, int i, const char **names) {
    PyObject *v = FIELD(f, o, i);
    if (v == NULL) PyErr_Format(PyExc_AttributeError, "_obsc: %s has no %s", f->type->tp_name, names[i]);
    return v;
}

static int check_type(const Fields *f, PyObject *o) {
    if (Py_TYPE(o) != f->type) {
        PyErr_Format(PyExc_TypeError, "_obsc: expected %s, got %s", f->type->tp_name, Py_TYPE(o)->tp_name);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ small readers */

static int as_long(PyObject *v, long *out) {
    if (!PyLong_Check(v)) {
        PyErr_Format(PyExc_TypeError, "_obsc: an int was expected, not %s", Py_TYPE(v)->tp_name);
        return -1;
    }
    long x = PyLong_AsLong(v);
    if (x == -1 && PyErr_Occurred()) return -1;
    *out = x;
    return 0;
}

/* Item ``i`` of a tuple as a long. */
static int tuple_long(PyObject *t, Py_ssize_t i, long *out) {
    if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) <= i) {
        PyErr_SetString(PyExc_TypeError, "_obsc: a tuple of ints was expected");
        return -1;
    }
    return as_long(PyTuple_GET_ITEM(t, i), out);
}

static int need_tuple(PyObject *t) {
    if (!PyTuple_Check(t)) {
        PyErr_Format(PyExc_TypeError, "_obsc: a tuple was expected, not %s", Py_TYPE(t)->tp_name);
        return -1;
    }
    return 0;
}

/* ``table[key]`` as a C long, or -1 when ``key`` is not in ``table`` (-2 on error). */
static long lookup(PyObject *table, PyObject *key) {
    PyObject *v = PyDict_GetItemWithError(table, key);
    if (v == NULL) return PyErr_Occurred() ? -2 : -1;
    long x = PyLong_AsLong(v);
    if (x == -1 && PyErr_Occurred()) return -2;
    return x;
}

/* Round a block of doubles to the float32 buffer (as numpy's and struct's conversions do). */
static void store(float *dst, const double *src, Py_ssize_t n) {
    for (Py_ssize_t i = 0; i < n; i++) dst[i] = (float)src[i];
}

/* ------------------------------------------------------------------ the encoder */

typedef struct {
    PyObject_HEAD
    Fields g, sc, ex, cv;  /* Glance, ScytheGlance, ExpGlance, CombatView */
    float *vec[2];        /* each seat's vector (copied out into a new numpy array by every call) */
    float *buf;           /* the vector of the seat being encoded */
    PyObject *glance;     /* meloch.engine.glance (``observe``) */
    PyObject *kinds, *board_ix, *unit_ix, *card_ix, *meloch_ix, *tokens;  /* dicts; tokens: tuple */
    long *combat_slot;
    Py_ssize_t n_combat_ids;
    Py_ssize_t size, nk, n_locs, n_cards, track_cols, n_meloch, n_private;
    Py_ssize_t o_decision, o_global, o_track, o_meloch, o_board, o_units[2], o_seat[2], o_private, o_combat;
    Py_ssize_t seat_size;
    /* by seat: what each block was last written from (strong references; NULL: never written) */
    PyObject *p_track[2], *p_meloch[2], *p_map_tokens[2], *p_revealed[2], *p_lakes[2], *p_corruption[2],
        *p_seat[2][2], *p_combat[2];
} Encoder;

#define SEAT_FEATURES 16
#define BOARD_FEATURES 6
#define UNIT_FEATURES 5
#define N_TOKENS_MAX 16

static void encoder_forget(Encoder *e) {
    for (int i = 0; i < 2; i++) {
        Py_CLEAR(e->p_track[i]);
        Py_CLEAR(e->p_meloch[i]);
        Py_CLEAR(e->p_map_tokens[i]);
        Py_CLEAR(e->p_revealed[i]);
        Py_CLEAR(e->p_lakes[i]);
        Py_CLEAR(e->p_corruption[i]);
        Py_CLEAR(e->p_seat[i][0]);
        Py_CLEAR(e->p_seat[i][1]);
        Py_CLEAR(e->p_combat[i]);
    }
}

static void encoder_dealloc(Encoder *e) {
    PyObject_GC_UnTrack(e);
    encoder_forget(e);
    PyMem_Free(e->vec[0]);
    PyMem_Free(e->vec[1]);
    Py_XDECREF(e->glance);
    Py_XDECREF(e->kinds);
    Py_XDECREF(e->board_ix);
    Py_XDECREF(e->unit_ix);
    Py_XDECREF(e->card_ix);
    Py_XDECREF(e->meloch_ix);
    Py_XDECREF(e->tokens);
    Py_XDECREF(e->g.type);
    Py_XDECREF(e->sc.type);
    Py_XDECREF(e->ex.type);
    Py_XDECREF(e->cv.type);
    PyMem_Free(e->combat_slot);
    Py_TYPE(e)->tp_free((PyObject *)e);
}

static int encoder_init(Encoder *e, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"glance", "glance_type", "scythe_type", "exp_type", "combat_type", "kinds",
                             "board_ix", "unit_ix", "card_ix", "meloch_ix", "tokens", "combat_slot", "offsets",
                             "track_cols", "n_meloch", "n_private", NULL};
    PyObject *glance, *gt, *st, *et, *ct, *kinds, *board_ix, *unit_ix, *card_ix, *meloch_ix, *tokens, *slot, *offsets;
    Py_ssize_t track_cols, n_meloch, n_private;
    if (e->vec[0] != NULL) {
        PyErr_SetString(PyExc_RuntimeError, "_obsc.Encoder: already initialised");
        return -1;
    }
    if (!PyArg_ParseTupleAndKeywords(args, kw, "$OOOOOO!O!O!O!O!O!O!O!nnn", kwlist, &glance, &gt, &st,
                                     &et, &ct,
                                     &PyDict_Type, &kinds, &PyDict_Type, &board_ix, &PyDict_Type, &unit_ix,
                                     &PyDict_Type, &card_ix, &PyDict_Type, &meloch_ix, &PyTuple_Type, &tokens,
                                     &PyTuple_Type, &slot, &PyTuple_Type, &offsets, &track_cols, &n_meloch,
                                     &n_private))
        return -1;
    if (fields_init(&e->g, gt, G_NAMES, G_N) < 0 || fields_init(&e->sc, st, S_NAMES, S_N) < 0 ||
        fields_init(&e->ex, et, E_NAMES, E_N) < 0 || fields_init(&e->cv, ct, C_NAMES, C_N) < 0)
        return -1;
    if (PyTuple_GET_SIZE(offsets) != 12) {
        PyErr_SetString(PyExc_ValueError, "_obsc.Encoder: offsets are the 11 blocks' float offsets and the size");
        return -1;
    }
    Py_ssize_t o[12];
    for (int i = 0; i < 12; i++) {
        o[i] = PyLong_AsSsize_t(PyTuple_GET_ITEM(offsets, i));
        if (o[i] == -1 && PyErr_Occurred()) return -1;
    }
    e->o_decision = o[0]; e->o_global = o[1]; e->o_track = o[2]; e->o_meloch = o[3]; e->o_board = o[4];
    e->o_units[0] = o[5]; e->o_units[1] = o[6]; e->o_seat[0] = o[7]; e->o_seat[1] = o[8];
    e->o_private = o[9]; e->o_combat = o[10]; e->size = o[11];
    e->nk = PyDict_GET_SIZE(kinds);
    e->n_locs = PyDict_GET_SIZE(unit_ix);
    e->n_cards = PyDict_GET_SIZE(card_ix);
    e->track_cols = track_cols;
    e->n_meloch = n_meloch;
    e->n_private = n_private;
    e->seat_size = o[8] - o[7];
    if (PyTuple_GET_SIZE(tokens) > N_TOKENS_MAX || e->o_global != e->nk + 3 ||
        e->seat_size != SEAT_FEATURES + PyTuple_GET_SIZE(tokens) + 5 * e->n_cards ||
        o[6] - o[5] != UNIT_FEATURES * e->n_locs || o[5] - o[4] != BOARD_FEATURES * e->n_locs ||
        o[11] - o[10] != 8 || o[10] - o[9] != n_private || o[4] - o[3] != 2 * n_meloch || o[3] - o[2] != 2 * track_cols) {
        PyErr_SetString(PyExc_ValueError, "_obsc.Encoder: the offsets do not match the layout");
        return -1;
    }
    e->n_combat_ids = PyTuple_GET_SIZE(slot);
    e->combat_slot = PyMem_Calloc(e->n_combat_ids + 1, sizeof(long));
    if (e->combat_slot == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < e->n_combat_ids; i++) {
        long s;
        if (as_long(PyTuple_GET_ITEM(slot, i), &s) < 0) return -1;
        if (s < 0 || s >= n_private - 1) {
            PyErr_SetString(PyExc_ValueError, "_obsc.Encoder: a combat slot is outside the private block");
            return -1;
        }
        e->combat_slot[i] = s;
    }
    for (int i = 0; i < 2; i++)
        if ((e->vec[i] = PyMem_Calloc(e->size, sizeof(float))) == NULL) {
            PyErr_NoMemory();
            return -1;
        }
    Py_INCREF(glance); e->glance = glance;
    Py_INCREF(kinds); e->kinds = kinds;
    Py_INCREF(board_ix); e->board_ix = board_ix;
    Py_INCREF(unit_ix); e->unit_ix = unit_ix;
    Py_INCREF(card_ix); e->card_ix = card_ix;
    Py_INCREF(meloch_ix); e->meloch_ix = meloch_ix;
    Py_INCREF(tokens); e->tokens = tokens;
    return 0;
}

/* A location's base offset in ``table`` (-1: not a known location; -2: error). The base must leave
 * room for ``width`` features in a block of ``n`` floats. */
static long loc_base(PyObject *table, PyObject *loc, long width, Py_ssize_t n) {
    long b = lookup(table, loc);
    if (b >= 0 && b + width > n) {
        PyErr_SetString(PyExc_IndexError, "_obsc: a location offset is outside its block");
        return -2;
    }
    return b;
}

/* ``decision``: the one-hot kind of this seat's decision (the last slot: another kind or the other
 * seat decides), this seat decides, a combat is open (``observe._decision``). */
static int write_decision(Encoder *e, PyObject *g, long me) {
    long decider;
    PyObject *kind = field_checked(&e->g, g, G_KIND, G_NAMES), *dec = field_checked(&e->g, g, G_DECIDER, G_NAMES);
    PyObject *combat = field_checked(&e->g, g, G_COMBAT, G_NAMES);
    if (kind == NULL || dec == NULL || combat == NULL || as_long(dec, &decider) < 0) return -1;
    float *out = e->buf + e->o_decision;
    Py_ssize_t nk = e->nk;
    memset(out, 0, sizeof(float) * (nk + 3));
    if (decider >= 0) {
        Py_ssize_t slot = nk;
        if (decider == me) {
            long k = lookup(e->kinds, kind);
            if (k == -2) return -1;
            if (k >= 0 && k < nk) slot = k;
        }
        out[slot] = 1.0f;
        out[nk + 1] = decider == me ? 1.0f : 0.0f;
    }
    out[nk + 2] = combat != Py_None ? 1.0f : 0.0f;
    return 0;
}

/* ``global`` (``observe._global``). */
static int write_global(Encoder *e, PyObject *g, long me) {
    long turn, step, active, turn_limit, stalemate_open, supply, trash, discard, stars[2], home[2], d[5];
    static const int ints[] = {G_TURN, G_STEP, G_ACTIVE, G_TURN_LIMIT, G_STALEMATE_OPEN, G_MAP_TOKEN_SUPPLY,
                               G_MAP_TOKEN_TRASH, G_COMBAT_DISCARD};
    long *dst[] = {&turn, &step, &active, &turn_limit, &stalemate_open, &supply, &trash, &discard};
    for (size_t i = 0; i < sizeof(ints) / sizeof(ints[0]); i++) {
        PyObject *x = field_checked(&e->g, g, ints[i], G_NAMES);
        if (x == NULL || as_long(x, dst[i]) < 0) return -1;
    }
    PyObject *st = FIELD(&e->g, g, G_STARS), *ht = FIELD(&e->g, g, G_HOME_TURNS), *decks = FIELD(&e->g, g, G_DECKS);
    for (int i = 0; i < 2; i++)
        if (tuple_long(st, i, &stars[i]) < 0 || tuple_long(ht, i, &home[i]) < 0) return -1;
    for (int i = 0; i < 5; i++)
        if (tuple_long(decks, i, &d[i]) < 0) return -1;
    long opp = 1 - me, limit = turn_limit > 1 ? turn_limit : 1;
    double x[16] = {
        (double)turn / (double)limit, (double)step / 1000.0, active == me ? 1.0 : 0.0, (double)stars[me] / 4.0,
        (double)stars[opp] / 4.0, (double)home[me] / 10.0, (double)home[opp] / 10.0, (double)stalemate_open,
        (double)supply / 9.0, (double)trash / 9.0, (double)d[0] / 40.0, (double)d[1] / 60.0, (double)d[2] / 12.0,
        (double)d[3] / 21.0, (double)d[4] / 10.0, (double)discard / 60.0};
    store(e->buf + e->o_global, x, 16);
    return 0;
}

/* ``track``: per column, my star and the opponent's (``observe._track``). */
static int write_track(Encoder *e, PyObject *track, long me) {
    float *out = e->buf + e->o_track;
    Py_ssize_t n = 2 * e->track_cols;
    memset(out, 0, sizeof(float) * n);
    if (need_tuple(track) < 0) return -1;
    for (Py_ssize_t col = 0; col < PyTuple_GET_SIZE(track); col++) {
        PyObject *seats = PyTuple_GET_ITEM(track, col);
        if (need_tuple(seats) < 0) return -1;
        for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(seats); j++) {
            long seat;
            if (as_long(PyTuple_GET_ITEM(seats, j), &seat) < 0) return -1;
            Py_ssize_t at = 2 * col + (seat == me ? 0 : 1);
            if (at >= n) {
                PyErr_SetString(PyExc_IndexError, "_obsc: the track has more columns than the layout");
                return -1;
            }
            out[at] = 1.0f;
        }
    }
    return 0;
}

/* ``meloch``: per Meloch card, placed upright / rotated (``observe._meloch``). */
static int write_meloch(Encoder *e, PyObject *row) {
    float *out = e->buf + e->o_meloch;
    memset(out, 0, sizeof(float) * 2 * e->n_meloch);
    if (need_tuple(row) < 0) return -1;
    for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(row); j++) {
        PyObject *item = PyTuple_GET_ITEM(row, j);
        if (need_tuple(item) < 0 || PyTuple_GET_SIZE(item) != 2) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "_obsc: a Meloch card is (id, rotated)");
            return -1;
        }
        long i = lookup(e->meloch_ix, PyTuple_GET_ITEM(item, 0)), rotated;
        if (i == -2) return -1;
        if (i < 0) continue;
        int t = PyObject_IsTrue(PyTuple_GET_ITEM(item, 1));
        if (t < 0) return -1;
        rotated = t;
        if (i >= e->n_meloch) {
            PyErr_SetString(PyExc_IndexError, "_obsc: a Meloch card index is outside its block");
            return -1;
        }
        out[2 * i + rotated] = 1.0f;
    }
    return 0;
}

/* Add ``w`` at feature ``col`` of every location of the tuple ``locs`` in ``acc``. */
static int spread(PyObject *table, PyObject *locs, long col, double w, double *acc, long width, Py_ssize_t n) {
    if (need_tuple(locs) < 0) return -1;
    for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(locs); j++) {
        long b = loc_base(table, PyTuple_GET_ITEM(locs, j), width, n);
        if (b == -2) return -1;
        if (b >= 0) acc[b + col] += w;
    }
    return 0;
}

/* ``board``: map tokens, revealed benefits, lakes, corruption by location (``observe._board_public``). */
static int write_board(Encoder *e, PyObject *g) {
    Py_ssize_t n = BOARD_FEATURES * e->n_locs;
    double acc[BOARD_FEATURES * 64];
    if (n > (Py_ssize_t)(sizeof(acc) / sizeof(acc[0]))) {
        PyErr_SetString(PyExc_ValueError, "_obsc: too many locations");
        return -1;
    }
    memset(acc, 0, sizeof(double) * n);
    PyObject *mt = FIELD(&e->g, g, G_MAP_TOKENS), *rv = FIELD(&e->g, g, G_REVEALED), *lk = FIELD(&e->g, g, G_LAKES);
    PyObject *cr = FIELD(&e->g, g, G_CORRUPTION);
    if (spread(e->board_ix, mt, 0, 1.0, acc, BOARD_FEATURES, n) < 0 ||
        spread(e->board_ix, rv, 1, 1.0, acc, BOARD_FEATURES, n) < 0 ||
        spread(e->board_ix, lk, 2, 1.0, acc, BOARD_FEATURES, n) < 0 || need_tuple(cr) < 0)
        return -1;
    for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(cr); j++) {
        PyObject *item = PyTuple_GET_ITEM(cr, j);
        if (need_tuple(item) < 0 || PyTuple_GET_SIZE(item) != 2) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "_obsc: corruption is (location, stack)");
            return -1;
        }
        long b = loc_base(e->board_ix, PyTuple_GET_ITEM(item, 0), BOARD_FEATURES, n);
        if (b == -2) return -1;
        if (b < 0) continue;
        PyObject *stack = PyTuple_GET_ITEM(item, 1);
        if (need_tuple(stack) < 0) return -1;
        long guile = 0, power = 0;
        for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(stack); k++) {
            PyObject *tok = PyTuple_GET_ITEM(stack, k);
            long val;
            if (need_tuple(tok) < 0 || PyTuple_GET_SIZE(tok) != 2) {
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "_obsc: a corruption token is (colour, value)");
                return -1;
            }
            if (as_long(PyTuple_GET_ITEM(tok, 1), &val) < 0) return -1;
            PyObject *colour = PyTuple_GET_ITEM(tok, 0);
            if (PyUnicode_Check(colour) && PyUnicode_CompareWithASCIIString(colour, "guile") == 0) guile += val;
            else if (PyUnicode_Check(colour) && PyUnicode_CompareWithASCIIString(colour, "power") == 0) power += val;
        }
        acc[b + 3] += (double)PyTuple_GET_SIZE(stack) / 4.0;
        acc[b + 4] += (double)guile / 10.0;
        acc[b + 5] += (double)power / 10.0;
    }
    store(e->buf + e->o_board, acc, n);
    return 0;
}

static int get_longs(const Fields *f, PyObject *o, const int *which, int k, long *v, const char **names) {
    for (int i = 0; i < k; i++) {
        PyObject *x = field_checked(f, o, which[i], names);
        if (x == NULL || as_long(x, &v[which[i]]) < 0) return -1;
    }
    return 0;
}

static Py_ssize_t tuple_len(PyObject *t) {
    return need_tuple(t) < 0 ? -1 : PyTuple_GET_SIZE(t);
}

/* What a seat block and a units block are written from: a seat glance's fields (``from_glance``). */
typedef struct {
    int exp;                       /* 0: Scythe, 1: Expeditions */
    double counters[SEAT_FEATURES];
    PyObject *at;                  /* the character's (Scythe) or the hero's (Expeditions) location */
    PyObject *mechs, *workers, *structures, *resources;  /* Scythe: tuples */
    PyObject *token, *piles[5];    /* Expeditions: token; hand, active, solved, upgraded, melded */
} SeatIn;

static int from_glance(Encoder *e, PyObject *sv, SeatIn *in) {
    memset(in, 0, sizeof(*in));
    if (Py_TYPE(sv) == e->sc.type) {
        static const int ints[] = {S_POWER, S_POPULARITY, S_COINS, S_COMBAT_CARDS, S_COMBAT_WINS, S_SECTION,
                                   S_STARS_UNPLACED, S_ENCOUNTERS, S_MAP_TOKENS, S_WORKERS_ON_MAT};
        long v[S_N];
        if (get_longs(&e->sc, sv, ints, sizeof(ints) / sizeof(ints[0]), v, S_NAMES) < 0) return -1;
        in->at = field_checked(&e->sc, sv, S_CHARACTER, S_NAMES);
        in->mechs = FIELD(&e->sc, sv, S_MECHS);
        in->workers = FIELD(&e->sc, sv, S_WORKERS);
        in->structures = FIELD(&e->sc, sv, S_STRUCTURES);
        in->resources = FIELD(&e->sc, sv, S_RESOURCES);
        if (in->at == NULL) return -1;
        Py_ssize_t n_mechs = tuple_len(in->mechs), n_structures = tuple_len(in->structures);
        if (n_mechs < 0 || n_structures < 0) return -1;
        double c[SEAT_FEATURES] = {
            1.0, 0.0, (double)v[S_POWER] / 16.0, (double)v[S_COINS] / 20.0, (double)v[S_POPULARITY] / 18.0,
            (double)v[S_COMBAT_CARDS] / 10.0, (double)v[S_COMBAT_WINS] / 6.0, (double)v[S_SECTION] / 5.0,
            (double)v[S_STARS_UNPLACED] / 6.0, (double)v[S_ENCOUNTERS] / 3.0, (double)v[S_MAP_TOKENS] / 9.0,
            (double)v[S_WORKERS_ON_MAT] / 8.0, 0.0, 0.0, (double)n_mechs / 4.0, (double)n_structures / 4.0};
        memcpy(in->counters, c, sizeof(c));
        return 0;
    }
    if (Py_TYPE(sv) == e->ex.type) {
        static const int ints[] = {E_POWER, E_GUILE, E_COINS, E_COMBAT_CARDS, E_COMBAT_WINS, E_MAP_TOKENS, E_WORKERS,
                                   E_HAND, E_HERO_TRASHED, E_CORRUPTION};
        static const int piles[] = {E_HAND_CARDS, E_ACTIVE, E_SOLVED, E_UPGRADED, E_MELDED};
        long v[E_N];
        if (get_longs(&e->ex, sv, ints, sizeof(ints) / sizeof(ints[0]), v, E_NAMES) < 0) return -1;
        in->exp = 1;
        in->at = field_checked(&e->ex, sv, E_LOC, E_NAMES);
        in->token = field_checked(&e->ex, sv, E_TOKEN, E_NAMES);
        if (in->at == NULL || in->token == NULL) return -1;
        for (int p = 0; p < 5; p++)
            if ((in->piles[p] = field_checked(&e->ex, sv, piles[p], E_NAMES)) == NULL) return -1;
        Py_ssize_t n_solved = tuple_len(in->piles[2]);
        if (n_solved < 0) return -1;
        double c[SEAT_FEATURES] = {
            0.0, 1.0, (double)v[E_POWER] / 16.0, (double)v[E_COINS] / 20.0, (double)v[E_GUILE] / 16.0,
            (double)v[E_COMBAT_CARDS] / 10.0, (double)v[E_COMBAT_WINS] / 6.0, 0.0, 0.0, 0.0,
            (double)v[E_MAP_TOKENS] / 9.0, (double)v[E_WORKERS] / 8.0, (double)v[E_HAND] / 8.0,
            (double)v[E_HERO_TRASHED], (double)v[E_CORRUPTION] / 20.0, (double)n_solved / 5.0};
        memcpy(in->counters, c, sizeof(c));
        return 0;
    }
    PyErr_Format(PyExc_TypeError, "_obsc: a seat glance was expected, not %s", Py_TYPE(sv)->tp_name);
    return -1;
}

/* One discovery pile's one-hot part of a seat block. */
static int pile(Encoder *e, float *out, PyObject *cards) {
    if (need_tuple(cards) < 0) return -1;
    for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(cards); j++) {
        PyObject *c = PyTuple_GET_ITEM(cards, j);
        long i = lookup(e->card_ix, c);
        if (i == -2) return -1;
        if (i >= e->n_cards) {
            PyErr_SetString(PyExc_IndexError, "_obsc: a card index is outside its pile");
            return -1;
        }
        if (i >= 0) out[i] = 1.0f;
    }
    return 0;
}

/* A seat's ``units_*`` block and ``me`` / ``opp`` block (``observe._board_units``, ``_seat_block``). */
static int write_seat(Encoder *e, const SeatIn *in, int side) {
    Py_ssize_t nu = UNIT_FEATURES * e->n_locs;
    double acc[UNIT_FEATURES * 64];
    float *block = e->buf + e->o_seat[side];
    if (nu > (Py_ssize_t)(sizeof(acc) / sizeof(acc[0]))) {
        PyErr_SetString(PyExc_ValueError, "_obsc: too many locations");
        return -1;
    }
    memset(acc, 0, sizeof(double) * nu);
    memset(block, 0, sizeof(float) * e->seat_size);
    long b = loc_base(e->unit_ix, in->at, UNIT_FEATURES, nu);
    if (b == -2) return -1;
    if (b >= 0) acc[b] += 1.0;
    if (!in->exp) {
        if (spread(e->unit_ix, in->mechs, 1, 0.25, acc, UNIT_FEATURES, nu) < 0 ||
            spread(e->unit_ix, in->workers, 2, 0.25, acc, UNIT_FEATURES, nu) < 0 || need_tuple(in->structures) < 0 ||
            need_tuple(in->resources) < 0)
            return -1;
        for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(in->structures); j++) {
            PyObject *item = PyTuple_GET_ITEM(in->structures, j);
            if (need_tuple(item) < 0 || PyTuple_GET_SIZE(item) != 2) {
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "_obsc: a structure is (kind, location)");
                return -1;
            }
            b = loc_base(e->unit_ix, PyTuple_GET_ITEM(item, 1), UNIT_FEATURES, nu);
            if (b == -2) return -1;
            if (b >= 0) acc[b + 3] += 1.0;
        }
        for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(in->resources); j++) {
            PyObject *item = PyTuple_GET_ITEM(in->resources, j);
            long cnt;
            if (need_tuple(item) < 0 || PyTuple_GET_SIZE(item) != 3) {
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "_obsc: a resource is (location, kind, count)");
                return -1;
            }
            b = loc_base(e->unit_ix, PyTuple_GET_ITEM(item, 0), UNIT_FEATURES, nu);
            if (b == -2) return -1;
            if (b < 0) continue;
            if (as_long(PyTuple_GET_ITEM(item, 2), &cnt) < 0) return -1;
            acc[b + 4] += (double)cnt / 8.0;
        }
    }
    else {
        Py_ssize_t nt = PyTuple_GET_SIZE(e->tokens);
        float *tail = block + SEAT_FEATURES;
        for (Py_ssize_t t = 0; t < nt; t++) {
            int eq = PyObject_RichCompareBool(PyTuple_GET_ITEM(e->tokens, t), in->token, Py_EQ);
            if (eq < 0) return -1;
            if (eq) {
                tail[t] = 1.0f;
                break;
            }
        }
        for (int p = 0; p < 5; p++)
            if (pile(e, tail + nt + p * e->n_cards, in->piles[p]) < 0) return -1;
    }
    store(block, in->counters, SEAT_FEATURES);
    store(e->buf + e->o_units[side], acc, nu);
    return 0;
}

/* ``private``: my combat cards by type, my known facts (``observe._private``). */
static int write_private(Encoder *e, PyObject *own, long known) {
    float *out = e->buf + e->o_private;
    double acc[64];
    Py_ssize_t n = e->n_private;
    if (n > 64) {
        PyErr_SetString(PyExc_ValueError, "_obsc: too many combat types");
        return -1;
    }
    memset(acc, 0, sizeof(double) * n);
    if (own != Py_None) {
        if (need_tuple(own) < 0) return -1;
        for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(own); j++) {
            long cid;
            if (as_long(PyTuple_GET_ITEM(own, j), &cid) < 0) return -1;
            if (cid < 0) cid += e->n_combat_ids;  /* (a Python tuple index) */
            if (cid < 0 || cid >= e->n_combat_ids) {
                PyErr_SetString(PyExc_IndexError, "_obsc: a combat-card id is outside the deck");
                return -1;
            }
            acc[e->combat_slot[cid]] += 0.25;
        }
    }
    acc[n - 1] = (double)known / 4.0;
    store(out, acc, n);
    return 0;
}

/* ``combat``: I attack / defend, revealed, tucked counts, my dial, the totals once revealed. */
static int write_combat(Encoder *e, PyObject *c, long me) {
    float *out = e->buf + e->o_combat;
    memset(out, 0, sizeof(float) * 8);
    if (c == Py_None) return 0;
    if (check_type(&e->cv, c) < 0) return -1;
    long opp = 1 - me, att, def, rev, t_me, t_opp, dial = 0;
    PyObject *a = field_checked(&e->cv, c, C_ATTACKER, C_NAMES), *d = field_checked(&e->cv, c, C_DEFENDER, C_NAMES);
    PyObject *r = field_checked(&e->cv, c, C_REVEALED, C_NAMES), *t = field_checked(&e->cv, c, C_TUCKED, C_NAMES);
    PyObject *dl = field_checked(&e->cv, c, me == 0 ? C_DIAL_0 : C_DIAL_1, C_NAMES);
    PyObject *tot = field_checked(&e->cv, c, C_TOTALS, C_NAMES);
    if (a == NULL || d == NULL || r == NULL || t == NULL || dl == NULL || tot == NULL) return -1;
    if (as_long(a, &att) < 0 || as_long(d, &def) < 0 || as_long(r, &rev) < 0 || tuple_long(t, me, &t_me) < 0 ||
        tuple_long(t, opp, &t_opp) < 0)
        return -1;
    if (dl != Py_None) {
        int truth = PyObject_IsTrue(dl);  /* (``dial or 0``) */
        if (truth < 0 || (truth && as_long(dl, &dial) < 0)) return -1;
    }
    double x[8] = {att == me ? 1.0 : 0.0, def == me ? 1.0 : 0.0, (double)rev, (double)t_me / 3.0,
                   (double)t_opp / 3.0, (double)dial / 7.0, 0.0, 0.0};
    if (tot != Py_None) {
        long a_me, a_opp;
        if (tuple_long(tot, me, &a_me) < 0 || tuple_long(tot, opp, &a_opp) < 0) return -1;
        x[6] = (double)a_me / 20.0;
        x[7] = (double)a_opp / 20.0;
    }
    store(out, x, 8);
    return 0;
}

/* A new float32 numpy array holding seat ``me``'s vector (created through numpy's C API: the
 * ``copy`` method's path, with its argument parsing and casting look-ups, cost several times more
 * per decision with the caches cold after each ``apply``). */
static PyObject *vector(Encoder *e, long me) {
    npy_intp n = e->size;
    PyObject *out = PyArray_SimpleNew(1, &n, NPY_FLOAT32);
    if (out == NULL) return NULL;
    memcpy(PyArray_DATA((PyArrayObject *)out), e->vec[me], sizeof(float) * n);
    return out;
}

/* Remember ``part`` in ``*slot`` (a strong reference). */
static inline void keep(PyObject **slot, PyObject *part) {
    Py_INCREF(part);
    Py_XSETREF(*slot, part);
}

/* The blocks whose part changed, then a copy of the vector. On an error the memo is forgotten, so
 * the next call rewrites every block. */
static PyObject *encoder_encode(Encoder *e, PyObject *g) {
    if (e->vec[0] == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "_obsc.Encoder: not initialised");
        return NULL;
    }
    if (check_type(&e->g, g) < 0) return NULL;
    for (int i = 0; i < G_N; i++)
        if (FIELD(&e->g, g, i) == NULL) {
            PyErr_Format(PyExc_AttributeError, "_obsc: the glance has no %s", G_NAMES[i]);
            return NULL;
        }
    long me, known;
    if (as_long(FIELD(&e->g, g, G_SEAT), &me) < 0 || as_long(FIELD(&e->g, g, G_KNOWN), &known) < 0) return NULL;
    if (me != 0 && me != 1) {
        PyErr_SetString(PyExc_ValueError, "_obsc: the glance's seat must be 0 or 1");
        return NULL;
    }
    PyObject *seats = FIELD(&e->g, g, G_SEATS);
    if (!PyTuple_Check(seats) || PyTuple_GET_SIZE(seats) != 2) {
        PyErr_SetString(PyExc_TypeError, "_obsc: a glance has two seats");
        return NULL;
    }
    PyObject *x;
    e->buf = e->vec[me];
    if (write_decision(e, g, me) < 0 || write_global(e, g, me) < 0) goto fail;
    x = FIELD(&e->g, g, G_TRACK);
    if (x != e->p_track[me]) {
        if (write_track(e, x, me) < 0) goto fail;
        keep(&e->p_track[me], x);
    }
    x = FIELD(&e->g, g, G_MELOCH_ROW);
    if (x != e->p_meloch[me]) {
        if (write_meloch(e, x) < 0) goto fail;
        keep(&e->p_meloch[me], x);
    }
    if (FIELD(&e->g, g, G_MAP_TOKENS) != e->p_map_tokens[me] || FIELD(&e->g, g, G_REVEALED) != e->p_revealed[me] ||
        FIELD(&e->g, g, G_LAKES) != e->p_lakes[me] || FIELD(&e->g, g, G_CORRUPTION) != e->p_corruption[me]) {
        if (write_board(e, g) < 0) goto fail;
        keep(&e->p_map_tokens[me], FIELD(&e->g, g, G_MAP_TOKENS));
        keep(&e->p_revealed[me], FIELD(&e->g, g, G_REVEALED));
        keep(&e->p_lakes[me], FIELD(&e->g, g, G_LAKES));
        keep(&e->p_corruption[me], FIELD(&e->g, g, G_CORRUPTION));
    }
    for (int side = 0; side < 2; side++) {  /* side 0: this seat (``units_me``, ``me``) */
        x = PyTuple_GET_ITEM(seats, side == 0 ? me : 1 - me);
        if (x != e->p_seat[me][side]) {
            SeatIn in;
            if (from_glance(e, x, &in) < 0 || write_seat(e, &in, side) < 0) goto fail;
            keep(&e->p_seat[me][side], x);
        }
    }
    x = PyTuple_GET_ITEM(seats, me);
    PyObject *own = FIELD(Py_TYPE(x) == e->sc.type ? &e->sc : &e->ex, x,
                          Py_TYPE(x) == e->sc.type ? S_COMBAT_CARD_IDS : E_COMBAT_CARD_IDS);
    if (own == NULL || write_private(e, own, known) < 0) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_AttributeError, "_obsc: a seat glance has no combat_card_ids");
        goto fail;
    }
    x = FIELD(&e->g, g, G_COMBAT);
    if (x != e->p_combat[me]) {
        if (write_combat(e, x, me) < 0) goto fail;
        keep(&e->p_combat[me], x);
    }
    return vector(e, me);
fail:
    encoder_forget(e);
    return NULL;
}

/* ------------------------------------------------------------------ observe
 *
 * ``observe(state, seat)`` is ``encode(glance(state, seat))``: the engine's ``glance`` (its public
 * protocol: what the seat may see), called from here so no Python frame sits between it and the
 * encoding. The state itself is never read here. */

static PyObject *encoder_observe(Encoder *e, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "observe(state, seat) takes 2 arguments");
        return NULL;
    }
    if (e->glance == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "_obsc.Encoder: not initialised");
        return NULL;
    }
    PyObject *g = PyObject_Vectorcall(e->glance, args, 2, NULL);  /* (a bad seat: glance's error) */
    if (g == NULL) return NULL;
    PyObject *out = encoder_encode(e, g);
    Py_DECREF(g);
    return out;
}

static PyObject *encoder_forget_py(Encoder *e, PyObject *Py_UNUSED(ignored)) {
    encoder_forget(e);
    Py_RETURN_NONE;
}

static int encoder_traverse(Encoder *e, visitproc visit, void *arg) {
    for (int i = 0; i < 2; i++) {
        Py_VISIT(e->p_track[i]);
        Py_VISIT(e->p_meloch[i]);
        Py_VISIT(e->p_map_tokens[i]);
        Py_VISIT(e->p_revealed[i]);
        Py_VISIT(e->p_lakes[i]);
        Py_VISIT(e->p_corruption[i]);
        Py_VISIT(e->p_seat[i][0]);
        Py_VISIT(e->p_seat[i][1]);
        Py_VISIT(e->p_combat[i]);
    }
    return 0;
}

static int encoder_clear(Encoder *e) {
    encoder_forget(e);
    return 0;
}

static PyMethodDef encoder_methods[] = {
    {"encode", (PyCFunction)encoder_encode, METH_O, "encode(glance) -> the seat's float32 vector (a new array)"},
    {"observe", (PyCFunction)(void (*)(void))encoder_observe, METH_FASTCALL,
     "observe(state, seat) -> encode(glance(state, seat))"},
    {"forget", (PyCFunction)encoder_forget_py, METH_NOARGS, "forget() -> None: the next encode rewrites every block"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject EncoderType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "meloch.rl._obsc.Encoder",
    .tp_basicsize = sizeof(Encoder),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "One seat's observation vector, kept block by block (see the module's docstring).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)encoder_init,
    .tp_dealloc = (destructor)encoder_dealloc,
    .tp_traverse = (traverseproc)encoder_traverse,
    .tp_clear = (inquiry)encoder_clear,
    .tp_methods = encoder_methods,
};

/* ------------------------------------------------------------------ the module */

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_obsc",
    "The observation encoder of meloch.rl in C (the Python one is the fallback).",
    -1, NULL, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__obsc(void) {
    import_array();
    if (PyType_Ready(&EncoderType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    Py_INCREF(&EncoderType);
    if (PyModule_AddObject(m, "Encoder", (PyObject *)&EncoderType) < 0) {
        Py_DECREF(&EncoderType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
