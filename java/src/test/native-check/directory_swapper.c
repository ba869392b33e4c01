/*
 * The racing user of LoaderRaceTest: in PARENT (a directory it may write), it exchanges the
 * names A and B (renameat2 RENAME_EXCHANGE, atomic; three plain renames where the file system
 * lacks it) as fast as it can, so that A is in turn the checked directory and its own.
 * Every few hundred swaps it puts its planted library back (a hard link to SOURCE named LIB)
 * into whichever of the two directories it owns, in case the victim rewrote it there.
 * It stops when STOP exists or after LIMIT seconds, and prints how many swaps it made.
 *
 *   directory_swapper PARENT A B SOURCE LIB STOP LIMIT
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif

static void replant(int parent, const char *name, const char *source, const struct stat *src, const char *lib) {
  struct stat d;
  if (fstatat(parent, name, &d, AT_SYMLINK_NOFOLLOW) != 0 || d.st_uid != getuid()) return;
  int dir = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
  if (dir < 0) return;
  struct stat f;
  if (fstatat(dir, lib, &f, AT_SYMLINK_NOFOLLOW) != 0 || f.st_ino != src->st_ino) {
    unlinkat(dir, lib, 0);
    linkat(AT_FDCWD, source, dir, lib, 0);
  }
  close(dir);
}

int main(int argc, char **argv) {
  if (argc != 8) {
    fprintf(stderr, "usage: %s PARENT A B SOURCE LIB STOP LIMIT\n", argv[0]);
    return 2;
  }
  const char *a = argv[2], *b = argv[3], *source = argv[4], *lib = argv[5], *stop = argv[6];
  int parent = open(argv[1], O_RDONLY | O_DIRECTORY);
  struct stat src;
  if (parent < 0 || stat(source, &src) != 0) {
    perror("directory_swapper");
    return 2;
  }
  time_t until = time(NULL) + atol(argv[7]);
  int exchange = 1;
  unsigned long swaps = 0;
  for (unsigned long i = 0;; i++) {
    if (exchange) {
      if (renameat2(parent, a, parent, b, RENAME_EXCHANGE) == 0) {
        swaps++;
      } else if (errno == EINVAL || errno == ENOSYS) {
        exchange = 0;
      }
    } else if (renameat(parent, a, parent, "swap.tmp") == 0) {
      renameat(parent, b, parent, a);
      renameat(parent, "swap.tmp", parent, b);
      swaps++;
    }
    if (i % 256 == 0) {
      replant(parent, a, source, &src, lib);
      replant(parent, b, source, &src, lib);
      if (access(stop, F_OK) == 0 || time(NULL) > until) break;
    }
  }
  printf("swaps=%lu exchange=%d\n", swaps, exchange);
  return 0;
}
