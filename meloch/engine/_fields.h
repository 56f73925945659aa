/* Reading msgspec Struct fields by slot offset, shared by the C extensions: the engine's glance
 * (meloch/engine/_glancec.c) and the research API's encoder (meloch/rl/_obsc.c).
 *
 * A msgspec Struct keeps each field in an object slot described by a member descriptor on its
 * type; ``fields_init`` resolves the offsets of the named fields once, and ``FIELD`` reads one
 * without a dictionary look-up. The caller must check the object's exact type first (``Fields.type``).
 * ``FIELDS_WHO`` names the module in error messages. */

#ifndef MELOCH_FIELDS_H
#define MELOCH_FIELDS_H

#include <Python.h>
#include <structmember.h>

#ifndef FIELDS_WHO
#define FIELDS_WHO "meloch"
#endif

#define MAX_FIELDS 32

typedef struct {
    PyTypeObject *type; /* strong reference */
    Py_ssize_t off[MAX_FIELDS];
    int n;
} Fields;

/* Resolve the slot offset of each named field of ``type`` (a msgspec Struct: one member descriptor
 * holding an object per field). */
static int fields_init(Fields *f, PyObject *type, const char **names, int n) {
    if (!PyType_Check(type)) {
        PyErr_SetString(PyExc_TypeError, FIELDS_WHO ": a struct type was expected");
        return -1;
    }
    if (n > MAX_FIELDS) {
        PyErr_SetString(PyExc_ValueError, FIELDS_WHO ": too many fields");
        return -1;
    }
    f->type = (PyTypeObject *)type;
    Py_INCREF(type);
    f->n = n;
    for (int i = 0; i < n; i++) {
        PyObject *d = PyObject_GetAttrString(type, names[i]);
        if (d == NULL) return -1;
        if (!Py_IS_TYPE(d, &PyMemberDescr_Type)) {
            Py_DECREF(d);
            PyErr_Format(PyExc_TypeError, FIELDS_WHO ": %s.%s is not a slot", ((PyTypeObject *)type)->tp_name,
                         names[i]);
            return -1;
        }
        PyMemberDef *m = ((PyMemberDescrObject *)d)->d_member;
        if (m->type != T_OBJECT_EX && m->type != T_OBJECT) {
            Py_DECREF(d);
            PyErr_Format(PyExc_TypeError, FIELDS_WHO ": %s.%s is not an object slot",
                         ((PyTypeObject *)type)->tp_name, names[i]);
            return -1;
        }
        f->off[i] = m->offset;
        Py_DECREF(d);
    }
    return 0;
}

/* Field ``i`` of ``o`` (a borrowed reference; NULL when unset); ``o`` must be of the exact type. */
static inline PyObject *FIELD(const Fields *f, PyObject *o, int i) {
    return *(PyObject **)((char *)o + f->off[i]);
}

#endif
