package io.github.blake3fast.cli;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/**
 * Turns Java I/O exceptions into the text the official tool prints for the same failure:
 * the C library's description, then {@code (os error N)}.
 */
final class OsErrors {
  private OsErrors() {}

  private static final String[][] ERRNO = {
    {"1", "Operation not permitted"},
    {"2", "No such file or directory"},
    {"4", "Interrupted system call"},
    {"5", "Input/output error"},
    {"6", "No such device or address"},
    {"9", "Bad file descriptor"},
    {"11", "Resource temporarily unavailable"},
    {"12", "Cannot allocate memory"},
    {"13", "Permission denied"},
    {"16", "Device or resource busy"},
    {"19", "No such device"},
    {"20", "Not a directory"},
    {"21", "Is a directory"},
    {"22", "Invalid argument"},
    {"23", "Too many open files in system"},
    {"24", "Too many open files"},
    {"26", "Text file busy"},
    {"27", "File too large"},
    {"28", "No space left on device"},
    {"29", "Illegal seek"},
    {"30", "Read-only file system"},
    {"32", "Broken pipe"},
    {"36", "File name too long"},
    {"40", "Too many levels of symbolic links"},
    {"61", "No data available"},
    {"75", "Value too large for defined data type"},
    {"95", "Operation not supported"},
    {"110", "Connection timed out"},
    {"116", "Stale file handle"},
    {"121", "Remote I/O error"},
    {"122", "Disk quota exceeded"},
  };

  static final String NOT_FOUND = text(2);
  static final String NOT_A_DIRECTORY = text(20);
  static final String IS_A_DIRECTORY = text(21);

  /** {@code Description (os error N)} for errno {@code n} from the table above. */
  static String text(int n) {
    String key = Integer.toString(n);
    for (String[] e : ERRNO) {
      if (e[0].equals(key)) {
        return e[1] + " (os error " + n + ")";
      }
    }
    return "Unknown error " + n + " (os error " + n + ")";
  }

  static String describe(IOException e) {
    if (e instanceof NoSuchFileException) {
      return NOT_FOUND;
    }
    if (e instanceof AccessDeniedException) {
      return text(13);
    }
    if (e instanceof NotDirectoryException) {
      return NOT_A_DIRECTORY;
    }
    String reason = e instanceof FileSystemException ? ((FileSystemException) e).getReason() : e.getMessage();
    if (e instanceof FileNotFoundException && reason != null && reason.endsWith(")")) {
      // FileInputStream: "name (reason)"
      int open = reason.lastIndexOf(" (");
      if (open >= 0) {
        reason = reason.substring(open + 2, reason.length() - 1);
      }
    }
    if (reason != null) {
      for (String[] entry : ERRNO) {
        if (reason.startsWith(entry[1])) {
          return entry[1] + " (os error " + entry[0] + ")";
        }
      }
      return reason;
    }
    return e.toString();
  }
}
