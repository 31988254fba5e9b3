/*
 * tracer_stress - hammers the tracer from 8 threads: initialization events
 * (new callbacks and publishers all the time), callbacks with publishes,
 * nested callbacks, takes; and one thread forking children that trace too.
 * Linked with libcaret.so ahead of libtracetools.so, as a preload would put
 * it. Run it while sessions are started and destroyed (test_tracer_stress),
 * under ASan and TSan: it must end cleanly with no report.
 *
 * usage: tracer_stress SECONDS
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tracetools/tracetools.h"

#define THREADS 8
#define OBJECTS 4096 /* per thread: distinct addresses for handles */

static atomic_bool stop;
static atomic_long callbacks;

static void one_callback(const char *cb, const char *pub, const char *rmw_sub, long i)
{
	ros_trace_rmw_take(rmw_sub, &i, i, true);
	ros_trace_dispatch_subscription_callback(&i, cb, (uint64_t)i, (uint64_t)i);
	ros_trace_callback_start(cb, false);
	ros_trace_rclcpp_publish(pub, &i);
	ros_trace_rcl_publish(pub, &i);
	ros_trace_rmw_publish(&i);
	if (i % 7 == 0) { /* a callback that runs another one inside */
		ros_trace_callback_start(cb + 1, true);
		ros_trace_callback_end(cb + 1);
	}
	ros_trace_callback_end(cb);
	atomic_fetch_add_explicit(&callbacks, 1, memory_order_relaxed);
}

static void *worker(void *arg)
{
	char *objects = calloc(OBJECTS, 8); /* addresses only, never read */
	char name[64];
	long t = (long)(intptr_t)arg, i = 0;
	int saved;

	if (!objects)
		return NULL;
	snprintf(name, sizeof name, "worker_%ld", t);
	ros_trace_rcl_node_init(objects, objects + 1, name, "/stress");
	while (!atomic_load(&stop)) {
		char *base = objects + 8 * (size_t)(i % (OBJECTS / 8 - 1));
		if (i % 500 == 0) { /* a new subscription and publisher */
			ros_trace_rcl_publisher_init(base + 2, objects, base + 3, "/stress/out", 10);
			ros_trace_rcl_subscription_init(base + 4, objects, base + 5, "/stress/in", 10);
			ros_trace_rclcpp_subscription_init(base + 4, base + 6);
			ros_trace_rclcpp_subscription_callback_added(base + 6, base);
			ros_trace_rclcpp_callback_register(base, name);
		}
		errno = 1234;
		one_callback(base, base + 2, base + 5, i);
		saved = errno;
		if (saved != 1234) {
			fprintf(stderr, "tracer_stress: errno changed to %d\n", saved);
			exit(1);
		}
		i++;
	}
	free(objects);
	return NULL;
}

static void *forker(void *arg)
{
	(void)arg;
	while (!atomic_load(&stop)) {
		pid_t pid = fork();
		if (pid == 0) {
			static char cb, pub, sub;
			for (long i = 0; i < 2000; i++)
				one_callback(&cb, &pub, &sub, i);
			_exit(0);
		}
		if (pid > 0) {
			int status;
			waitpid(pid, &status, 0);
			if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
				fprintf(stderr, "tracer_stress: forked child failed (status %d)\n", status);
				exit(1);
			}
		}
		struct timespec ts = { 0, 100000000 };
		nanosleep(&ts, NULL);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 5;
	pthread_t threads[THREADS + 1];
	static char context;

	ros_trace_rcl_init(&context);
	for (long t = 0; t < THREADS; t++)
		pthread_create(&threads[t], NULL, worker, (void *)(intptr_t)t);
	pthread_create(&threads[THREADS], NULL, forker, NULL);
	struct timespec ts = { (time_t)seconds, (long)((seconds - (time_t)seconds) * 1e9) };
	nanosleep(&ts, NULL);
	atomic_store(&stop, true);
	for (int t = 0; t <= THREADS; t++)
		pthread_join(threads[t], NULL);
	printf("tracer_stress: %ld callbacks traced by %d threads in %.1f s\n",
		atomic_load(&callbacks), THREADS, seconds);
	return 0;
}
