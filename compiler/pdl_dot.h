/* pdl_dot: a program's model on p processors drawn as a Graphviz DOT digraph (`--emit dot`):
 * the scaled model as the pattern walker composes it, or the generic model's task graphs. */
#ifndef PDL_DOT_H
#define PDL_DOT_H

#include "pdl_gen.h"

#include <stdint.h>
#include <stdio.h>

/* Largest graph written, in nodes: beyond this dot takes minutes and nobody can read the
 * picture, so the program says so instead. */
#define PDL_DOT_MAX_NODES 5000

/* Writes the model of the program on p processors of machine `machine` as a DOT digraph to out.
 * generic = 0: the scaled model; 1: the generic model (the task graphs pdl_generic.c builds).
 * Returns 0, or -1 after reporting errors through pdl_gen_diag(g). The graph is built in memory
 * and written only when complete; a failed write returns -1 without a message (errno set): the
 * caller, who knows the file's name, reports it.
 *
 * The scaled model (series-parallel, what the default method solves), from `start` to `end`
 * (whose label carries the model's mean runtime):
 * - a WORK phase occurrence is a cluster "phase NAME (SCHEME)" holding one box per group of
 *   processors with identically distributed shares from the scheme's generator ("P0-P3,P6 (5)",
 *   at most three ranges, then "...", and the group's size; its mean), then, when the shares'
 *   tail (scatter, dependent parts, contention: a delay shared by all processors) is nonzero,
 *   a "tail" box fed by every group; the tail feeds the next synchronisation, where the model
 *   adds it. A synchronised result (all groups zero) is one box for all processors;
 * - SEQUENTIAL and SYNCHRONIZATION phases are one node each with their mean; SYNC and joins by
 *   BARRIER are octagons ("SYNC", "barrier") with the machine's barrier mean; joins by NEIGHBOR,
 *   TORUS or NEIGHBOR-TORUS synchronise at no cost in the scaled model (models.md) and are a
 *   "join KIND" octagon of mean 0;
 * - work phases joined SERIAL continue per processor: an edge from each group of the first to
 *   each group of the second that shares a processor (as pdl_gen.c, only while everything
 *   since the last synchronisation is work joined SERIAL); other joins of several ends to
 *   several starts meet in a point;
 * - `a | b` is a "branch" diamond with an edge to each alternative labelled by its weight and a
 *   "merge" diamond after them; `x ^ n` is a cluster "× n, copies joined KIND" with x drawn
 *   once (`x ^ 0` a "nothing" node); `x +[q]` is a cluster with a point before x and a dashed
 *   back edge "q = ..." from x's end to it (through a barrier when x joins itself by BARRIER);
 *   `x *[q]` enters that through another point, by an edge "q = ...", or bypasses it by an edge
 *   "1 - q = ...".
 * The generic model (design/models.md; what --method bounds/simulate solve) is a sum of parts
 * whose means add up, each weighted by how often it runs; each part is drawn once, in pattern
 * order (alternatives and loop bodies are visited once), stacked by invisible edges:
 * - every segment (task graph) is a cluster "segment N: PHASE, ..." with its expected number of
 *   runs; a node says its phase, ARBITRARY task, kind (work, message, sync, arrival), processor
 *   and mean; the graph's arcs are the edges; its zero source and sink are points;
 * - closed parts are single nodes with their mean and runs: sequential and synchronization
 *   phases, barriers and contention that cost something (zero-cost ones are left out).
 * Nodes are named n0, n1, ... in drawing order. Either graph over PDL_DOT_MAX_NODES nodes is an
 * error. Labels are escaped for DOT, numbers
 * written by pdl_format_number, and the output is the same bytes on every run. */
int pdl_dot_write(pdl_gen *g, size_t machine, uint64_t p, int generic, FILE *out);

#endif
