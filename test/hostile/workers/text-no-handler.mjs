// A text pool entry that loads but exports no batch handler (a wrong file named as the entry).
export const notAHandler = 1;
