/** One pass/miss line of the report: a target from the issues, the figure measured, the verdict. */
export interface Target {
  readonly name: string;
  readonly figure: string;
  readonly pass: boolean;
}
