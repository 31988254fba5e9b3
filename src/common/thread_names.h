/*
 * thread_names.h - names of the threads libcaret.so adds to a process.
 * The analyzer knows a process by its threads' names (the procname of its
 * events), and must not take libcaret's for the application's.
 */
#ifndef CARET_THREAD_NAMES_H
#define CARET_THREAD_NAMES_H

#define CARET_CONTROL_THREAD_NAME "caret_control" /* the control plane's DDS thread */

#endif
