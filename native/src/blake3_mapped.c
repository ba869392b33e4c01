/*
 * blake3-fast: hashing a file range through a memory mapping (see blake3_mapped.h).
 *
 * Reading a mapping is what makes file hashing cost no more than the hashing itself: no copy
 * from the page cache into a buffer. Its danger is SIGBUS: a file that shrinks below a mapped
 * page (or whose storage fails) turns the next read of that page into a signal, which in
 * native code the JVM's handler does not recognise and answers by ending the process.
 *
 * So every read of a mapping happens inside a guard: the thread registers the mapping's range
 * and a sigsetjmp point in a slot, and a SIGBUS handler of this library, installed once in
 * front of the previous one (the JVM's), jumps back to that point when the faulting address is
 * in a range registered by the faulting thread. Every other SIGBUS goes to the previous
 * handler unchanged, with the same siginfo and context, so the JVM's own uses (a
 * MappedByteBuffer read in Java code becomes an InternalError) behave as before. The hashing
 * interrupted by the jump holds no lock and no allocation: it only reads the mapping and
 * writes to the caller's stack.
 *
 * A guard is used only while the installed SIGBUS handler is still this one (checked on every
 * call: another library may have replaced it since); else, or when no slot is free or the
 * mapping fails, the call does nothing and says B3M_UNAVAILABLE.
 */
#include "blake3_mapped.h"

#if defined(_WIN32)
/* Windows: a view of a file that shrinks raises EXCEPTION_IN_PAGE_ERROR, which only structured
 * exception handling catches, and gcc's C has none; the JVM's FileDescriptor there holds a
 * handle, not an fd, anyway. So no mapping: the Java side reads the range instead. */
int blake3_hash_mapped(const blake3_kernel *k, int fd, uint64_t pos, size_t len,
                       const uint32_t key[8], uint64_t counter, uint8_t flags, uint32_t *cvs_out) {
  (void)k, (void)fd, (void)pos, (void)len, (void)key, (void)counter, (void)flags, (void)cvs_out;
  return B3M_UNAVAILABLE;
}
#else

#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Threads that can read mappings at once; more fall back to reads. */
#define B3M_SLOTS 64

enum { B3M_FREE, B3M_CLAIMED, B3M_ARMED };

struct b3m_guard {
  atomic_int state;
  /* Written by the owning thread before it arms the slot; read by the handler on that thread,
   * and by handlers on other threads, which only compare them. */
  _Atomic uintptr_t owner, lo, hi;
  sigjmp_buf env;
};

_Static_assert(sizeof(pthread_t) <= sizeof(uintptr_t), "pthread_t fits a uintptr_t");

static struct b3m_guard b3m_guards[B3M_SLOTS];
static struct sigaction b3m_previous;
/* 0: not tried; 1: being installed (meanwhile other threads read instead); 2: installed;
 * 3: sigaction refused. Not pthread_once: in glibc before 2.34 that is in libpthread. */
static atomic_int b3m_setup;

static uintptr_t b3m_self(void) { return (uintptr_t)pthread_self(); }

/* Hands a SIGBUS that is not ours to the handler that was there before. */
static void b3m_forward(int sig, siginfo_t *info, void *ctx) {
  if (b3m_previous.sa_flags & SA_SIGINFO) {
    b3m_previous.sa_sigaction(sig, info, ctx);
  } else if (b3m_previous.sa_handler != SIG_DFL && b3m_previous.sa_handler != SIG_IGN) {
    b3m_previous.sa_handler(sig);
  } else {
    /* Default action: returning re-runs the faulting access, which now ends the process as
     * it would have without this handler. */
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
  }
}

static void b3m_on_sigbus(int sig, siginfo_t *info, void *ctx) {
  const uintptr_t addr = (uintptr_t)info->si_addr;
  const uintptr_t self = b3m_self();
  for (int i = 0; i < B3M_SLOTS; i++) {
    struct b3m_guard *g = &b3m_guards[i];
    if (atomic_load_explicit(&g->state, memory_order_acquire) == B3M_ARMED &&
        atomic_load_explicit(&g->owner, memory_order_relaxed) == self &&
        addr >= atomic_load_explicit(&g->lo, memory_order_relaxed) &&
        addr < atomic_load_explicit(&g->hi, memory_order_relaxed)) {
      siglongjmp(g->env, 1);
    }
  }
  b3m_forward(sig, info, ctx);
}

static int b3m_install(void) {
  /* The previous handler is recorded before this one is in place, so that a SIGBUS arriving
   * meanwhile on another thread is forwarded to it, not to an empty record. */
  if (sigaction(SIGBUS, NULL, &b3m_previous) != 0) return 0;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = b3m_on_sigbus;
  /* The previous handler's mask and flags, so that it runs as it expects when forwarded to. */
  sa.sa_flags = SA_SIGINFO | (b3m_previous.sa_flags & (SA_ONSTACK | SA_RESTART | SA_NODEFER));
  sa.sa_mask = b3m_previous.sa_mask;
  return sigaction(SIGBUS, &sa, NULL) == 0;
}

/* Whether this library's handler is the one the process has now. */
static int b3m_handler_in_place(void) {
  int setup = atomic_load(&b3m_setup);
  if (setup == 0) {
    if (atomic_compare_exchange_strong(&b3m_setup, &setup, 1)) {
      setup = b3m_install() ? 2 : 3;
      atomic_store(&b3m_setup, setup);
    }
  }
  if (setup != 2) return 0;
  struct sigaction now;
  if (sigaction(SIGBUS, NULL, &now) != 0) return 0;
  return (now.sa_flags & SA_SIGINFO) && now.sa_sigaction == b3m_on_sigbus;
}

static struct b3m_guard *b3m_claim(void) {
  for (int i = 0; i < B3M_SLOTS; i++) {
    int expected = B3M_FREE;
    if (atomic_compare_exchange_strong(&b3m_guards[i].state, &expected, B3M_CLAIMED))
      return &b3m_guards[i];
  }
  return NULL;
}

int blake3_hash_mapped(const blake3_kernel *k, int fd, uint64_t pos, size_t len,
                       const uint32_t key[8], uint64_t counter, uint8_t flags, uint32_t *cvs_out) {
  if (len == 0 || !b3m_handler_in_place()) return B3M_UNAVAILABLE;
  const long page = sysconf(_SC_PAGESIZE);
  if (page <= 0) return B3M_UNAVAILABLE;
  const uint64_t skew = pos % (uint64_t)page;
  const size_t span = len + (size_t)skew;
  uint8_t *map = mmap(NULL, span, PROT_READ, MAP_SHARED, fd, (off_t)(pos - skew));
  if (map == MAP_FAILED) return B3M_UNAVAILABLE;
  struct b3m_guard *g = b3m_claim();
  if (g == NULL) {
    munmap(map, span);
    return B3M_UNAVAILABLE;
  }
  atomic_store_explicit(&g->owner, b3m_self(), memory_order_relaxed);
  atomic_store_explicit(&g->lo, (uintptr_t)map, memory_order_relaxed);
  atomic_store_explicit(&g->hi, (uintptr_t)map + span, memory_order_relaxed);
  volatile int result = B3M_FAULT;
  if (sigsetjmp(g->env, 1) == 0) {
    atomic_store_explicit(&g->state, B3M_ARMED, memory_order_release);
    result = (int)blake3_hash_subtrees(k, map + skew, len, key, counter, flags, 63, cvs_out);
  }
  atomic_store_explicit(&g->state, B3M_FREE, memory_order_release);
  munmap(map, span);
  return result;
}

#endif /* !_WIN32 */
