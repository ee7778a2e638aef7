/** One problem with one field of a submitted value, named the way the client wrote it (media[2], title.zh). */
export interface FieldProblem {
  field: string;
  message: string;
}
