/* gRPC's completion queue orders each operation's start before its completion event, and the
 * thread that takes the event then reads what the starting thread wrote (a call's context).
 * gRPC is Debian's build, not compiled with ThreadSanitizer, so that order is invisible to it
 * and every such read would be reported as a race: under TSan these two marks state the order
 * (CQ_HANDOFF before an operation is started with p as its tag's context, CQ_TAKEN after its
 * event is taken); in every other build they are nothing. */
#ifndef CUZK_CQ_HANDOFF_H
#define CUZK_CQ_HANDOFF_H

#if defined(__SANITIZE_THREAD__)
#define CUZK_UNDER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define CUZK_UNDER_TSAN 1
#endif
#endif

#ifdef CUZK_UNDER_TSAN
void __tsan_acquire(void *addr);
void __tsan_release(void *addr);
#define CQ_HANDOFF(p) __tsan_release(p)
#define CQ_TAKEN(p) __tsan_acquire(p)
#else
#define CQ_HANDOFF(p) ((void)(p))
#define CQ_TAKEN(p) ((void)(p))
#endif

#endif
