/*
 * caret/export.h - what libcaret-analyze.so exports: the functions of the
 * public headers, and nothing else (everything is built hidden).
 */
#ifndef CARET_EXPORT_H
#define CARET_EXPORT_H

#if defined(__GNUC__) || defined(__clang__)
#define CARET_API __attribute__((visibility("default")))
#else
#define CARET_API
#endif

#endif
