/* meloch.rl._actc: the legal actions' indices and the action mask of meloch.rl, in C.
 *
 * Why C: per decision, the environments map each legal action to its index in the fixed action
 * space and build the int8 mask. In Python the look-up hashes each fresh ``Action`` and compares it
 * with the stored key object, field by field down to the argument strings: with the caches cold
 * after each ``apply``, several memory misses per action. ``Indexer`` keys its own table by the
 * action's text (``who``, ``verb``, ``args``, joined), stored inline in 64-byte entries, so a look-up
 * reads the fresh action and one table line. The Python functions in ``actions.py`` stay: the
 * fallback when this module is not built and the reference the tests compare with (both paths run
 * in ``make test``); ``Indexer`` calls ``actions.encode`` for an action it has not seen (which also
 * raises ``ActionSpaceError`` for an action outside the space).
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <stdint.h>
#include <string.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

/* ------------------------------------------------------------------ the indices */

#define KEY_MAX 44      /* key bytes stored inline; a longer key is looked up by ``encode`` */
#define SEP '\x1f'      /* between the key's parts (no id contains it) */
#define MAX_LOAD 2      /* grow when more than 1/MAX_LOAD of the slots are used */
#define MAX_SLOTS (1 << 20)

typedef struct {
    uint64_t hash;      /* 0: an empty slot */
    PyObject *index;    /* the action's index (a strong reference: handed out without allocating) */
    uint32_t len;
    char key[KEY_MAX];
} Entry;

typedef struct {
    PyObject_HEAD
    PyObject *encode;   /* actions.encode */
    PyTypeObject *type; /* Action */
    Py_ssize_t off_who, off_verb, off_args;
    Entry *slots;
    size_t n_slots, used;
} Indexer;

static uint64_t fnv1a(const char *s, size_t n) {
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 1099511628211ULL;
    }
    return h ? h : 1;
}

static void table_clear(Indexer *x) {
    for (size_t i = 0; i < x->n_slots; i++)
        if (x->slots[i].hash) Py_CLEAR(x->slots[i].index);
    if (x->slots) memset(x->slots, 0, sizeof(Entry) * x->n_slots);
    x->used = 0;
}

static int table_alloc(Indexer *x, size_t n) {
    Entry *slots = PyMem_Calloc(n, sizeof(Entry));
    if (slots == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    Entry *old = x->slots;
    size_t old_n = x->n_slots;
    x->slots = slots;
    x->n_slots = n;
    x->used = 0;
    for (size_t i = 0; i < old_n; i++) {  /* (rehash: the references move) */
        if (!old[i].hash) continue;
        size_t j = old[i].hash & (n - 1);
        while (slots[j].hash) j = (j + 1) & (n - 1);
        slots[j] = old[i];
        x->used++;
    }
    PyMem_Free(old);
    return 0;
}

static Py_ssize_t member_offset(PyTypeObject *type, const char *name) {
    PyObject *d = PyObject_GetAttrString((PyObject *)type, name);
    if (d == NULL) return -1;
    Py_ssize_t off = -1;
    if (Py_IS_TYPE(d, &PyMemberDescr_Type)) {
        PyMemberDef *m = ((PyMemberDescrObject *)d)->d_member;
        if (m->type == T_OBJECT_EX || m->type == T_OBJECT) off = m->offset;
    }
    Py_DECREF(d);
    if (off < 0) PyErr_Format(PyExc_TypeError, "_actc: %s.%s is not an object slot", type->tp_name, name);
    return off;
}

static int indexer_init(Indexer *x, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"encode", "action_type", NULL};
    PyObject *encode, *type;
    if (x->encode != NULL) {
        PyErr_SetString(PyExc_RuntimeError, "_actc.Indexer: already initialised");
        return -1;
    }
    if (!PyArg_ParseTupleAndKeywords(args, kw, "$OO!", kwlist, &encode, &PyType_Type, &type)) return -1;
    x->type = (PyTypeObject *)type;
    if ((x->off_who = member_offset(x->type, "who")) < 0 || (x->off_verb = member_offset(x->type, "verb")) < 0 ||
        (x->off_args = member_offset(x->type, "args")) < 0)
        return -1;
    if (table_alloc(x, 1 << 13) < 0) return -1;
    Py_INCREF(type);
    Py_INCREF(encode);
    x->encode = encode;
    return 0;
}

/* Append ``s`` (a str) to the key; 0 when it does not fit (or is not a str). */
static int put(char *key, size_t *n, PyObject *s) {
    if (!PyUnicode_Check(s)) return 0;
    Py_ssize_t len;
    const char *u = PyUnicode_AsUTF8AndSize(s, &len);
    if (u == NULL) {
        PyErr_Clear();
        return 0;
    }
    if (*n + (size_t)len + 1 > KEY_MAX) return 0;
    memcpy(key + *n, u, len);
    *n += len;
    key[(*n)++] = SEP;
    return 1;
}

/* The action's key (who, verb, args); 0 when it has none (another type, a long key). */
static int key_of(Indexer *x, PyObject *a, char *key, size_t *n) {
    *n = 0;
    if (Py_TYPE(a) != x->type) return 0;
    PyObject *who = *(PyObject **)((char *)a + x->off_who), *verb = *(PyObject **)((char *)a + x->off_verb);
    PyObject *args = *(PyObject **)((char *)a + x->off_args);
    if (who == NULL || verb == NULL || args == NULL || !PyTuple_CheckExact(args) || !put(key, n, who) ||
        !put(key, n, verb))
        return 0;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(args); i++)
        if (!put(key, n, PyTuple_GET_ITEM(args, i))) return 0;
    return 1;
}

/* The index of one action: the table's, else ``encode``'s (then remembered). A new reference. */
static PyObject *index_of(Indexer *x, PyObject *a) {
    char key[KEY_MAX];
    size_t n;
    if (!key_of(x, a, key, &n)) return PyObject_CallOneArg(x->encode, a);
    uint64_t h = fnv1a(key, n);
    size_t mask = x->n_slots - 1, j = h & mask;
    for (Entry *e = &x->slots[j]; e->hash; j = (j + 1) & mask, e = &x->slots[j])
        if (e->hash == h && e->len == n && memcmp(e->key, key, n) == 0) {
            Py_INCREF(e->index);
            return e->index;
        }
    PyObject *i = PyObject_CallOneArg(x->encode, a);
    if (i == NULL) return NULL;
    if (!PyLong_CheckExact(i)) return i;
    if (x->used + 1 > x->n_slots / MAX_LOAD) {
        if (x->n_slots < MAX_SLOTS) {
            if (table_alloc(x, x->n_slots * 2) < 0) {
                Py_DECREF(i);
                return NULL;
            }
        }
        else
            table_clear(x);  /* (bounded, as ``actions._SEEN``) */
        mask = x->n_slots - 1;
        j = h & mask;
    }
    while (x->slots[j].hash) j = (j + 1) & mask;
    Entry *e = &x->slots[j];
    e->hash = h;
    e->len = (uint32_t)n;
    memcpy(e->key, key, n);
    Py_INCREF(i);
    e->index = i;
    x->used++;
    return i;
}

/* ``indices(legal)``: the index of each action of ``legal``, in order (``actions.indices``). */
static PyObject *indexer_indices(Indexer *x, PyObject *legal) {
    if (x->encode == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "_actc.Indexer: not initialised");
        return NULL;
    }
    PyObject *seq = PySequence_Fast(legal, "indices() needs a sequence of actions");
    if (seq == NULL) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject *out = PyList_New(n);
    if (out == NULL) {
        Py_DECREF(seq);
        return NULL;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *i = index_of(x, PySequence_Fast_GET_ITEM(seq, k));
        if (i == NULL) {
            Py_DECREF(out);
            Py_DECREF(seq);
            return NULL;
        }
        PyList_SET_ITEM(out, k, i);
    }
    Py_DECREF(seq);
    return out;
}

static PyObject *indexer_size(Indexer *x, PyObject *Py_UNUSED(ignored)) {
    return Py_BuildValue("(nn)", (Py_ssize_t)x->used, (Py_ssize_t)x->n_slots);
}

static void indexer_dealloc(Indexer *x) {
    if (x->slots) {
        table_clear(x);
        PyMem_Free(x->slots);
    }
    Py_XDECREF(x->encode);
    Py_XDECREF((PyObject *)x->type);
    Py_TYPE(x)->tp_free((PyObject *)x);
}

static PyMethodDef indexer_methods[] = {
    {"indices", (PyCFunction)indexer_indices, METH_O, "indices(legal) -> the index of each legal action, in order"},
    {"size", (PyCFunction)indexer_size, METH_NOARGS, "size() -> (keys remembered, slots)"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject IndexerType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "meloch.rl._actc.Indexer",
    .tp_basicsize = sizeof(Indexer),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Indexer(encode=, action_type=): the legal actions' indices, by a table keyed by their text.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)indexer_init,
    .tp_dealloc = (destructor)indexer_dealloc,
    .tp_methods = indexer_methods,
};

/* ------------------------------------------------------------------ the mask */

typedef struct {
    PyObject_HEAD
    npy_intp size;
} Masker;

static int masker_init(Masker *m, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"size", NULL};
    Py_ssize_t size;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "n", kwlist, &size)) return -1;
    if (size <= 0) {
        PyErr_SetString(PyExc_ValueError, "_actc.Masker: the size must be positive");
        return -1;
    }
    m->size = size;
    return 0;
}

/* A new zero int8 array with ones at the indices of ``idx`` (any iterable of ints; a negative index
 * counts from the end, an index outside the vector is an IndexError, as numpy's item assignment).
 * Created through numpy's C API (``np.zeros`` and item assignment cost several times more per
 * decision with the caches cold after each ``apply``). */
static PyObject *masker_call(Masker *m, PyObject *args, PyObject *kw) {
    PyObject *idx;
    if (m->size <= 0) {
        PyErr_SetString(PyExc_RuntimeError, "_actc.Masker: not initialised");
        return NULL;
    }
    if (!PyArg_UnpackTuple(args, "mask", 1, 1, &idx)) return NULL;
    if (kw != NULL && PyDict_GET_SIZE(kw)) {
        PyErr_SetString(PyExc_TypeError, "mask() takes no keyword arguments");
        return NULL;
    }
    PyObject *seq = PySequence_Fast(idx, "mask() needs an iterable of indices");
    if (seq == NULL) return NULL;
    PyObject *out = PyArray_ZEROS(1, &m->size, NPY_INT8, 0);
    if (out == NULL) {
        Py_DECREF(seq);
        return NULL;
    }
    char *buf = PyArray_DATA((PyArrayObject *)out);
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq), len = m->size;
    PyObject **items = PySequence_Fast_ITEMS(seq);
    for (Py_ssize_t k = 0; k < n; k++) {
        Py_ssize_t i = PyNumber_AsSsize_t(items[k], PyExc_IndexError);
        if (i == -1 && PyErr_Occurred()) goto fail;
        if (i < 0) i += len;
        if (i < 0 || i >= len) {
            PyErr_Format(PyExc_IndexError, "index %zd is out of bounds for the mask of size %zd",
                         PyNumber_AsSsize_t(items[k], NULL), len);
            goto fail;
        }
        buf[i] = 1;
    }
    Py_DECREF(seq);
    return out;
fail:
    Py_DECREF(seq);
    Py_DECREF(out);
    return NULL;
}

static PyTypeObject MaskerType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "meloch.rl._actc.Masker",
    .tp_basicsize = sizeof(Masker),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Masker(size)(idx) -> a new int8 array of that size, with ones at idx.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)masker_init,
    .tp_call = (ternaryfunc)masker_call,
};

/* ------------------------------------------------------------------ the module */

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_actc",
    "The legal actions' indices and the action mask of meloch.rl in C (the Python ones are the fallback).",
    -1, NULL, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__actc(void) {
    import_array();
    if (PyType_Ready(&IndexerType) < 0 || PyType_Ready(&MaskerType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    Py_INCREF(&IndexerType);
    if (PyModule_AddObject(m, "Indexer", (PyObject *)&IndexerType) < 0) {
        Py_DECREF(&IndexerType);
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&MaskerType);
    if (PyModule_AddObject(m, "Masker", (PyObject *)&MaskerType) < 0) {
        Py_DECREF(&MaskerType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
