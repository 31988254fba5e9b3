/*
 * absent.h - why no traced process answered caret record's Start, told
 * from what runs: processes with libcaret.so's LTTng provider on this
 * machine (then they are on another DDS domain or discovery range), ROS 2
 * processes with ros2_tracing's provider alone (started without the
 * tracer), other DDS participants on the domain (ROS 2 without the tracer,
 * or on another host), or nothing at all.
 */
#ifndef CR_ABSENT_H
#define CR_ABSENT_H

#include <stddef.h>

#include <dds/dds.h>

/* The likely cause, in one line, into why. participant: the recorder's,
 * on domain; track_vgid >= 0: only the processes of that group count (the
 * session records no other). */
void cr_explain_absence(dds_entity_t participant, int domain, int track_vgid, char *why,
	size_t size);

#endif
