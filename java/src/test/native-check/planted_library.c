/*
 * The library another user plants for LoaderRaceTest: it has the file name of the real one and
 * is no JNI library at all. Its constructor runs on dlopen, before the JVM looks for JNI_OnLoad,
 * so a marker file MARKS/foreign-PID proves the library was loaded, whatever the loader decides
 * afterwards. MARKS is given at build time (-DMARKS="...") and only root can write there.
 */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

__attribute__((constructor)) static void planted_mark(void) {
  char path[4096];
  int n = snprintf(path, sizeof path, "%s/foreign-%ld", MARKS, (long)getpid());
  if (n <= 0 || (size_t)n >= sizeof path) return;
  int fd = open(path, O_CREAT | O_WRONLY | O_APPEND, 0644);
  if (fd >= 0) close(fd);
}
