/* CSV as RFC 4180 writes it: the one writer of every CSV file and --csv
 * output, through util/table.c's CSV backend (tune's and validate's
 * summary.csv, compare's summary.csv, report --csv). Names in them come from the job's output and the command line, so
 * a field is quoted whenever it holds a comma, a quote, CR or LF, or begins
 * or ends with a blank, and its quotes are doubled. */
#ifndef RDMARUN_CSV_H
#define RDMARUN_CSV_H
#include <stdbool.h>
#include <stdio.h>

/* One field, then ',' or, when last, the row's end ("\n"). */
void csv_field(FILE *out, const char *s, bool last);

#endif
