/* meloch.engine._glancec: the engine's ``glance(state, seat)`` in C.
 *
 * Why C: the research API (``meloch.rl``) asks for a glance at every decision, and in Python it
 * was the largest part of the environment's cost over the engine's own (``docs/rl.md``,
 * "Throughput"): about 25 attribute reads, two seat parts rebuilt and a 23-field struct per call,
 * interpreted. This module does the same work without the interpreter. ``glance.py`` keeps the
 * Python implementation: the fallback when this module is not built (no compiler at install time)
 * and the reference ``tests/rl`` compares with at every step of random games.
 *
 * ``Glancer(...)`` is built once by ``glance.py`` with the engine's own types and helpers and is
 * then the engine's ``glance``: calling it does what ``glance.glance_py`` does, with the same
 * remembered parts (the same ``_MEMO`` lists, so both paths hand back unchanged parts as the same
 * objects). What it does not do itself it asks the Python helpers for: a part other than a seat
 * (the stars, map tokens, lakes, corruption: they change rarely), an Expeditions seat with
 * corruption tokens (their values come from the content) and the combat part (``view._combat``).
 * It is part of the engine: it reads the state, and decides nothing the Python glance does not.
 *
 * Fields are read through the member descriptors' slot offsets of the exact msgspec types given at
 * construction; a state or seat of another type goes to the Python implementation.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define FIELDS_WHO "_glancec"
#include "_fields.h"

/* ------------------------------------------------------------------ the fields read */

enum { ST_SETUP, ST_FRAMES, ST_WINNER, ST_SEATS, ST_TRACK, ST_MAP_TOKENS, ST_LAKES, ST_CORRUPTION, ST_TURN,
       ST_STEP, ST_ACTIVE, ST_HOME_TURNS, ST_STALEMATE_OPEN, ST_MAP_TOKEN_SUPPLY, ST_MAP_TOKEN_TRASH,
       ST_DISCOVERY_DECK, ST_COMBAT_DECK, ST_ENCOUNTER_DECK, ST_FACTORY_CARDS, ST_MELOCH_DECK, ST_COMBAT_DISCARD,
       ST_MELOCH_ROW, ST_REVEALED, ST_COMBAT, ST_KNOWN, ST_N };
static const char *ST_NAMES[ST_N] = {
    "setup", "frames", "winner", "seats", "track", "map_tokens", "lakes", "corruption", "turn", "step", "active",
    "home_turns", "stalemate_open", "map_token_supply", "map_token_trash", "discovery_deck", "combat_deck",
    "encounter_deck", "factory_cards", "meloch_deck", "combat_discard", "meloch_row", "revealed", "combat", "known"};

enum { SU_CONTENT, SU_TURN_LIMIT, SU_N };
static const char *SU_NAMES[SU_N] = {"content", "turn_limit"};

enum { FR_SEAT, FR_KIND, FR_N };
static const char *FR_NAMES[FR_N] = {"seat", "kind"};

enum { KN_SEAT, KN_N };
static const char *KN_NAMES[KN_N] = {"seat"};

enum { SC_POWER, SC_POPULARITY, SC_COINS, SC_COMBAT_CARDS, SC_COMBAT_WINS, SC_SECTION, SC_STARS_UNPLACED,
       SC_ENCOUNTERS, SC_MAP_TOKENS, SC_WORKERS_ON_MAT, SC_CHARACTER, SC_MECHS, SC_WORKERS, SC_STRUCTURES,
       SC_RESOURCES, SC_N };
static const char *SC_NAMES[SC_N] = {
    "power", "popularity", "coins", "combat_cards", "combat_wins", "section", "stars_unplaced", "encounters",
    "map_tokens", "workers_on_mat", "character", "mechs", "workers", "structures", "resources"};

enum { EX_POWER, EX_GUILE, EX_COINS, EX_COMBAT_CARDS, EX_COMBAT_WINS, EX_MAP_TOKENS, EX_WORKERS, EX_HAND,
       EX_HERO_TRASHED, EX_CORRUPTION, EX_LOC, EX_TOKEN, EX_ACTIVE, EX_SOLVED, EX_UPGRADED, EX_MELDED, EX_N };
static const char *EX_NAMES[EX_N] = {
    "power", "guile", "coins", "combat_cards", "combat_wins", "map_tokens", "workers", "hand", "hero_trashed",
    "corruption", "loc", "token", "active", "solved", "upgraded", "melded"};

#define N_PARTS 6 /* stars, map_tokens, lakes, corruption, seat0, seat1 (glance._PARTS) */

typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    Fields st, su, fr, kn, sc, ex; /* State, Setup, Frame, Known, ScytheSeat, ExpSeat */
    PyObject *glance_type, *scythe_glance, *exp_glance; /* the result types */
    PyObject *memo;      /* glance._MEMO: (seat, content) -> [src, built] * N_PARTS */
    PyObject *new_memo;  /* glance._new_memo(seat, content) -> the list, stored in ``memo`` */
    PyObject *refresh;   /* glance._refresh(memo, i, state, seat, src) */
    PyObject *combat;    /* glance._combat_part(state, seat) */
    PyObject *fallback;  /* glance.glance_py(state, seat) */
    PyObject *last_content[2], *last_memo[2]; /* the last (content, memo list) per seat (strong) */
    int native;          /* 0: every call goes to ``fallback`` (the tests' switch) */
} Glancer;

static void Glancer_dealloc(Glancer *g) {
    Fields *all[] = {&g->st, &g->su, &g->fr, &g->kn, &g->sc, &g->ex};
    for (int i = 0; i < 6; i++) Py_XDECREF(all[i]->type);
    Py_XDECREF(g->glance_type);
    Py_XDECREF(g->scythe_glance);
    Py_XDECREF(g->exp_glance);
    Py_XDECREF(g->memo);
    Py_XDECREF(g->new_memo);
    Py_XDECREF(g->refresh);
    Py_XDECREF(g->combat);
    Py_XDECREF(g->fallback);
    for (int i = 0; i < 2; i++) {
        Py_XDECREF(g->last_content[i]);
        Py_XDECREF(g->last_memo[i]);
    }
    Py_TYPE(g)->tp_free((PyObject *)g);
}

static int Glancer_init(Glancer *g, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"state_type", "setup_type", "frame_type", "known_type", "scythe_seat", "exp_seat",
                             "glance_type", "scythe_glance", "exp_glance", "memo", "new_memo", "refresh",
                             "combat", "fallback", NULL};
    PyObject *st, *su, *fr, *kn, *sc, *ex, *gt, *sg, *eg, *memo, *new_memo, *refresh, *combat, *fallback;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "$OOOOOOOOOO!OOOO", kwlist, &st, &su, &fr, &kn, &sc, &ex, &gt, &sg,
                                     &eg, &PyDict_Type, &memo, &new_memo, &refresh, &combat, &fallback))
        return -1;
    if (fields_init(&g->st, st, ST_NAMES, ST_N) < 0 || fields_init(&g->su, su, SU_NAMES, SU_N) < 0 ||
        fields_init(&g->fr, fr, FR_NAMES, FR_N) < 0 || fields_init(&g->kn, kn, KN_NAMES, KN_N) < 0 ||
        fields_init(&g->sc, sc, SC_NAMES, SC_N) < 0 || fields_init(&g->ex, ex, EX_NAMES, EX_N) < 0)
        return -1;
    PyObject *keep[] = {gt, sg, eg, memo, new_memo, refresh, combat, fallback};
    for (int i = 0; i < 8; i++) Py_INCREF(keep[i]);
    g->glance_type = gt;
    g->scythe_glance = sg;
    g->exp_glance = eg;
    g->memo = memo;
    g->new_memo = new_memo;
    g->refresh = refresh;
    g->combat = combat;
    g->fallback = fallback;
    g->native = 1;
    return 0;
}

/* ------------------------------------------------------------------ pieces */

static PyObject *need(PyObject *v, const char *what) {
    if (v == NULL) PyErr_Format(PyExc_AttributeError, "_glancec: the %s is unset", what);
    return v;
}

/* len() of a field that is a tuple (any sized object works, more slowly); -1 on error. */
static Py_ssize_t len_of(PyObject *v) {
    if (v == NULL) {
        PyErr_SetString(PyExc_AttributeError, "_glancec: a counted field is unset");
        return -1;
    }
    if (PyTuple_CheckExact(v)) return PyTuple_GET_SIZE(v);
    return PyObject_Length(v);
}

/* The memo list of (seat, content): the last one this seat used when the content is the same. */
static PyObject *memo_of(Glancer *g, int seat, PyObject *content) {
    PyObject *last = g->last_content[seat];
    if (last != NULL && (last == content || PyUnicode_Compare(last, content) == 0)) return g->last_memo[seat];
    if (PyErr_Occurred()) return NULL;
    PyObject *key = Py_BuildValue("(iO)", seat, content);
    if (key == NULL) return NULL;
    PyObject *m = PyDict_GetItemWithError(g->memo, key); /* borrowed */
    Py_DECREF(key);
    if (m != NULL) {
        Py_INCREF(m);
    } else if (PyErr_Occurred() || (m = PyObject_CallFunction(g->new_memo, "iO", seat, content)) == NULL) {
        return NULL; /* (new_memo stores the list in the memo and returns it) */
    }
    if (!PyList_CheckExact(m) || PyList_GET_SIZE(m) != 2 * N_PARTS) {
        Py_DECREF(m);
        PyErr_SetString(PyExc_TypeError, "_glancec: a memo entry is a list of 12 items");
        return NULL;
    }
    Py_INCREF(content);
    Py_XSETREF(g->last_content[seat], content);
    Py_XSETREF(g->last_memo[seat], m); /* (takes the reference) */
    return m;
}

/* A seat part built in C (a Scythe seat, or an Expeditions seat without corruption); NULL with no
 * error set: not one C builds (the caller asks ``refresh``). New reference. */
static PyObject *seat_part(Glancer *g, PyObject *p, int mine) {
    PyObject *a[18];
    if (Py_TYPE(p) == g->sc.type) {
        const Fields *f = &g->sc;
        for (int i = 0; i < SC_N; i++)
            if (FIELD(f, p, i) == NULL) return NULL;
        PyObject *cards = FIELD(f, p, SC_COMBAT_CARDS);
        Py_ssize_t n_cards = len_of(cards), n_tokens = len_of(FIELD(f, p, SC_MAP_TOKENS));
        if (n_cards < 0 || n_tokens < 0) return NULL;
        PyObject *n1 = PyLong_FromSsize_t(n_cards), *n2 = PyLong_FromSsize_t(n_tokens);
        if (n1 == NULL || n2 == NULL) {
            Py_XDECREF(n1);
            Py_XDECREF(n2);
            return NULL;
        }
        a[0] = FIELD(f, p, SC_POWER);
        a[1] = FIELD(f, p, SC_POPULARITY);
        a[2] = FIELD(f, p, SC_COINS);
        a[3] = n1;
        a[4] = FIELD(f, p, SC_COMBAT_WINS);
        a[5] = FIELD(f, p, SC_SECTION);
        a[6] = FIELD(f, p, SC_STARS_UNPLACED);
        a[7] = FIELD(f, p, SC_ENCOUNTERS);
        a[8] = n2;
        a[9] = FIELD(f, p, SC_WORKERS_ON_MAT);
        a[10] = FIELD(f, p, SC_CHARACTER);
        a[11] = FIELD(f, p, SC_MECHS);
        a[12] = FIELD(f, p, SC_WORKERS);
        a[13] = FIELD(f, p, SC_STRUCTURES);
        a[14] = FIELD(f, p, SC_RESOURCES);
        a[15] = mine ? cards : Py_None;
        PyObject *out = PyObject_Vectorcall(g->scythe_glance, a, 16, NULL);
        Py_DECREF(n1);
        Py_DECREF(n2);
        return out;
    }
    if (Py_TYPE(p) != g->ex.type) return NULL;
    const Fields *f = &g->ex;
    for (int i = 0; i < EX_N; i++)
        if (FIELD(f, p, i) == NULL) return NULL;
    PyObject *corruption = FIELD(f, p, EX_CORRUPTION);
    if (!PyTuple_CheckExact(corruption) || PyTuple_GET_SIZE(corruption) != 0) return NULL; /* token values */
    PyObject *active = FIELD(f, p, EX_ACTIVE);
    if (!PyTuple_CheckExact(active)) return NULL;
    PyObject *cards = FIELD(f, p, EX_COMBAT_CARDS);
    PyObject *hand = FIELD(f, p, EX_HAND);
    Py_ssize_t counts[4] = {len_of(cards), len_of(FIELD(f, p, EX_MAP_TOKENS)), len_of(FIELD(f, p, EX_WORKERS)),
                            len_of(hand)};
    for (int i = 0; i < 4; i++)
        if (counts[i] < 0) return NULL;
    Py_ssize_t n_active = PyTuple_GET_SIZE(active);
    PyObject *ids = PyTuple_New(n_active);
    if (ids == NULL) return NULL;
    for (Py_ssize_t i = 0; i < n_active; i++) {
        PyObject *pair = PyTuple_GET_ITEM(active, i);
        if (!PyTuple_CheckExact(pair) || PyTuple_GET_SIZE(pair) < 1) {
            Py_DECREF(ids);
            return NULL; /* not the shape C knows: Python builds it */
        }
        PyObject *card = PyTuple_GET_ITEM(pair, 0);
        Py_INCREF(card);
        PyTuple_SET_ITEM(ids, i, card);
    }
    PyObject *n[4] = {NULL, NULL, NULL, NULL};
    int ok = 1;
    for (int i = 0; i < 4; i++)
        if ((n[i] = PyLong_FromSsize_t(counts[i])) == NULL) ok = 0;
    PyObject *zero = PyLong_FromLong(0);
    PyObject *out = NULL;
    if (ok && zero != NULL) {
        a[0] = FIELD(f, p, EX_POWER);
        a[1] = FIELD(f, p, EX_GUILE);
        a[2] = FIELD(f, p, EX_COINS);
        a[3] = n[0];
        a[4] = FIELD(f, p, EX_COMBAT_WINS);
        a[5] = n[1];
        a[6] = n[2];
        a[7] = n[3];
        a[8] = FIELD(f, p, EX_HERO_TRASHED);
        a[9] = zero;
        a[10] = FIELD(f, p, EX_LOC);
        a[11] = FIELD(f, p, EX_TOKEN);
        a[12] = hand;
        a[13] = ids;
        a[14] = FIELD(f, p, EX_SOLVED);
        a[15] = FIELD(f, p, EX_UPGRADED);
        a[16] = FIELD(f, p, EX_MELDED);
        a[17] = mine ? cards : Py_None;
        out = PyObject_Vectorcall(g->exp_glance, a, 18, NULL);
    }
    for (int i = 0; i < 4; i++) Py_XDECREF(n[i]);
    Py_XDECREF(zero);
    Py_DECREF(ids);
    return out;
}

/* Part ``i`` of the glance (borrowed from the memo list): the remembered one when ``src`` is the
 * remembered source, else rebuilt as ``glance._refresh`` does. */
static PyObject *part(Glancer *g, PyObject *m, int i, PyObject *state, int seat, PyObject *src) {
    PyObject **items = ((PyListObject *)m)->ob_item;
    if (src == items[2 * i]) return items[2 * i + 1];
    PyObject *built = i >= 4 ? seat_part(g, src, seat == i - 4) : NULL;
    if (built == NULL) {
        if (PyErr_Occurred()) return NULL;
        PyObject *r = PyObject_CallFunction(g->refresh, "OiOiO", m, i, state, seat, src);
        if (r == NULL) return NULL;
        Py_DECREF(r); /* the memo list holds it */
        return ((PyListObject *)m)->ob_item[2 * i + 1];
    }
    PyObject *old = items[2 * i + 1];
    int differ = PyObject_RichCompareBool(built, old, Py_NE);
    if (differ < 0) {
        Py_DECREF(built);
        return NULL;
    }
    if (differ) {
        if (PyList_SetItem(m, 2 * i + 1, built) < 0) return NULL; /* steals ``built`` */
    } else {
        Py_DECREF(built);
    }
    Py_INCREF(src);
    if (PyList_SetItem(m, 2 * i, src) < 0) return NULL;
    return ((PyListObject *)m)->ob_item[2 * i + 1];
}

/* ------------------------------------------------------------------ the call */

static PyObject *glance_c(Glancer *g, PyObject *state, int seat) {
    const Fields *st = &g->st;
    for (int i = 0; i < ST_N; i++)
        if (FIELD(st, state, i) == NULL) return PyObject_CallFunction(g->fallback, "Oi", state, seat);
    PyObject *setup = FIELD(st, state, ST_SETUP);
    if (Py_TYPE(setup) != g->su.type) return PyObject_CallFunction(g->fallback, "Oi", state, seat);
    PyObject *content = need(FIELD(&g->su, setup, SU_CONTENT), "setup's content");
    PyObject *turn_limit = need(FIELD(&g->su, setup, SU_TURN_LIMIT), "setup's turn limit");
    if (content == NULL || turn_limit == NULL) return NULL;
    if (!PyUnicode_Check(content)) return PyObject_CallFunction(g->fallback, "Oi", state, seat);
    PyObject *m = memo_of(g, seat, content);
    if (m == NULL) return NULL;
    Py_INCREF(m); /* (held for the call: the Python helpers it calls could drop it from the memo) */

    PyObject *result = NULL;
    PyObject *decider = NULL, *kind = NULL, *n[5] = {NULL}, *decks = NULL, *supply = NULL, *trash = NULL;
    PyObject *discard = NULL, *seats_t = NULL, *combat = NULL, *known = NULL, *parts[N_PARTS] = {NULL};

    /* the decision: the top frame while the game is not won */
    PyObject *frames = FIELD(st, state, ST_FRAMES), *winner = FIELD(st, state, ST_WINNER);
    long w = PyLong_AsLong(winner);
    if (w == -1 && PyErr_Occurred()) goto done;
    if (!PyTuple_CheckExact(frames)) {
        PyErr_SetString(PyExc_TypeError, "_glancec: the state's frames are a tuple");
        goto done;
    }
    if (PyTuple_GET_SIZE(frames) > 0 && w < 0) {
        PyObject *top = PyTuple_GET_ITEM(frames, PyTuple_GET_SIZE(frames) - 1);
        if (Py_TYPE(top) != g->fr.type) {
            PyErr_SetString(PyExc_TypeError, "_glancec: a frame of another type");
            goto done;
        }
        PyObject *d = need(FIELD(&g->fr, top, FR_SEAT), "frame's seat");
        PyObject *k = d == NULL ? NULL : need(FIELD(&g->fr, top, FR_KIND), "frame's kind");
        if (k == NULL) goto done;
        Py_INCREF(d);
        decider = d;
        Py_INCREF(k);
        kind = k;
    } else {
        decider = PyLong_FromLong(-1);
        kind = PyUnicode_FromStringAndSize("", 0);
        if (decider == NULL || kind == NULL) goto done;
    }

    /* the remembered parts */
    PyObject *seats = FIELD(st, state, ST_SEATS);
    if (!PyTuple_CheckExact(seats) || PyTuple_GET_SIZE(seats) != 2) {
        PyErr_SetString(PyExc_TypeError, "_glancec: the state's seats are a pair");
        goto done;
    }
    PyObject *srcs[N_PARTS] = {FIELD(st, state, ST_TRACK), FIELD(st, state, ST_MAP_TOKENS),
                               FIELD(st, state, ST_LAKES), FIELD(st, state, ST_CORRUPTION),
                               PyTuple_GET_ITEM(seats, 0), PyTuple_GET_ITEM(seats, 1)};
    for (int i = 0; i < N_PARTS; i++) {
        PyObject *p = part(g, m, i, state, seat, srcs[i]); /* (borrowed from the memo: held while used) */
        if (p == NULL) goto done;
        Py_INCREF(p);
        parts[i] = p;
    }
    seats_t = PyTuple_Pack(2, parts[4], parts[5]);

    /* the counts */
    const int deck_fields[5] = {ST_DISCOVERY_DECK, ST_COMBAT_DECK, ST_ENCOUNTER_DECK, ST_FACTORY_CARDS,
                                ST_MELOCH_DECK};
    int ok = seats_t != NULL;
    for (int i = 0; ok && i < 5; i++) {
        Py_ssize_t k = len_of(FIELD(st, state, deck_fields[i]));
        if (k < 0 || (n[i] = PyLong_FromSsize_t(k)) == NULL) ok = 0;
    }
    if (ok) decks = PyTuple_Pack(5, n[0], n[1], n[2], n[3], n[4]);
    Py_ssize_t k_supply = ok ? len_of(FIELD(st, state, ST_MAP_TOKEN_SUPPLY)) : -1;
    Py_ssize_t k_trash = k_supply < 0 ? -1 : len_of(FIELD(st, state, ST_MAP_TOKEN_TRASH));
    Py_ssize_t k_discard = k_trash < 0 ? -1 : len_of(FIELD(st, state, ST_COMBAT_DISCARD));
    if (decks != NULL && k_discard >= 0) {
        supply = PyLong_FromSsize_t(k_supply);
        trash = PyLong_FromSsize_t(k_trash);
        discard = PyLong_FromSsize_t(k_discard);
    }
    /* the combat part (rare: Python builds it) and the facts this seat learned */
    PyObject *c = FIELD(st, state, ST_COMBAT);
    if (supply != NULL && trash != NULL && discard != NULL) {
        if (c == Py_None) {
            combat = Py_None;
            Py_INCREF(combat);
        } else {
            combat = PyObject_CallFunction(g->combat, "Oi", state, seat);
        }
    }
    if (combat != NULL) {
        PyObject *facts = FIELD(st, state, ST_KNOWN);
        long count = 0;
        if (!PyTuple_CheckExact(facts)) {
            PyErr_SetString(PyExc_TypeError, "_glancec: the state's known facts are a tuple");
        } else {
            for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(facts); i++) {
                PyObject *k = PyTuple_GET_ITEM(facts, i);
                if (Py_TYPE(k) != g->kn.type || FIELD(&g->kn, k, KN_SEAT) == NULL) {
                    PyErr_SetString(PyExc_TypeError, "_glancec: a known fact of another type");
                    count = -1;
                    break;
                }
                long s = PyLong_AsLong(FIELD(&g->kn, k, KN_SEAT));
                if (s == -1 && PyErr_Occurred()) {
                    count = -1;
                    break;
                }
                count += s == seat;
            }
            if (count >= 0) known = PyLong_FromLong(count);
        }
    }
    if (known != NULL) {
        PyObject *seat_o = PyLong_FromLong(seat);
        if (seat_o != NULL) {
            PyObject *a[23] = {
                seat_o, decider, kind, FIELD(st, state, ST_TURN), FIELD(st, state, ST_STEP),
                FIELD(st, state, ST_ACTIVE), turn_limit, parts[0], FIELD(st, state, ST_HOME_TURNS),
                FIELD(st, state, ST_STALEMATE_OPEN), supply, trash, decks, discard, FIELD(st, state, ST_TRACK),
                FIELD(st, state, ST_MELOCH_ROW), parts[1], FIELD(st, state, ST_REVEALED), parts[2], parts[3],
                seats_t, combat, known};
            result = PyObject_Vectorcall(g->glance_type, a, 23, NULL);
            Py_DECREF(seat_o);
        }
    }
done:
    for (int i = 0; i < N_PARTS; i++) Py_XDECREF(parts[i]);
    Py_XDECREF(decider);
    Py_XDECREF(kind);
    for (int i = 0; i < 5; i++) Py_XDECREF(n[i]);
    Py_XDECREF(decks);
    Py_XDECREF(supply);
    Py_XDECREF(trash);
    Py_XDECREF(discard);
    Py_XDECREF(seats_t);
    Py_XDECREF(combat);
    Py_XDECREF(known);
    Py_DECREF(m);
    return result;
}

static PyObject *Glancer_vectorcall(PyObject *self, PyObject *const *args, size_t nargsf, PyObject *kwnames) {
    Glancer *g = (Glancer *)self;
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (g->fallback == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "_glancec: a Glancer that was not set up (its __init__ failed)");
        return NULL;
    }
    if (kwnames != NULL || nargs != 2 || !g->native || Py_TYPE(args[0]) != g->st.type)
        return PyObject_Vectorcall(g->fallback, args, nargsf, kwnames); /* its errors are the Python path's */
    long seat = PyLong_Check(args[1]) && !PyBool_Check(args[1]) ? PyLong_AsLong(args[1]) : -2;
    if (seat == -1 && PyErr_Occurred()) PyErr_Clear();
    if (seat != 0 && seat != 1) return PyObject_Vectorcall(g->fallback, args, nargsf, kwnames);
    return glance_c(g, args[0], (int)seat);
}

static PyObject *Glancer_call(PyObject *self, PyObject *args, PyObject *kw) {
    Glancer *g = (Glancer *)self;
    if ((kw == NULL && PyTuple_GET_SIZE(args) == 2) || g->fallback == NULL)
        return Glancer_vectorcall(self, &PyTuple_GET_ITEM(args, 0), PyTuple_GET_SIZE(args), NULL);
    return PyObject_Call(g->fallback, args, kw);
}

static PyObject *Glancer_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
    Glancer *g = (Glancer *)type->tp_alloc(type, 0);
    if (g != NULL) g->vectorcall = Glancer_vectorcall;
    return (PyObject *)g;
}

static PyMemberDef Glancer_members[] = {
    {"native", T_INT, offsetof(Glancer, native), 0,
     "1: the C path; 0: every call goes to the Python implementation (the tests compare both)."},
    {NULL}};

static PyTypeObject GlancerType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "meloch.engine._glancec.Glancer",
    .tp_doc = PyDoc_STR("The engine's glance(state, seat) in C (meloch/engine/glance.py builds it)."),
    .tp_basicsize = sizeof(Glancer),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_new = Glancer_new,
    .tp_init = (initproc)Glancer_init,
    .tp_dealloc = (destructor)Glancer_dealloc,
    .tp_call = Glancer_call,
    .tp_vectorcall_offset = offsetof(Glancer, vectorcall),
    .tp_members = Glancer_members,
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_glancec",
                                    "The engine's glance in C (meloch/engine/glance.py).", -1, NULL};

PyMODINIT_FUNC PyInit__glancec(void) {
    if (PyType_Ready(&GlancerType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    Py_INCREF(&GlancerType);
    if (PyModule_AddObject(m, "Glancer", (PyObject *)&GlancerType) < 0) {
        Py_DECREF(&GlancerType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
