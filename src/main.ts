// Entry point of the controller; the sync loop is wired in here.
process.stderr.write('mapi-capi-sync: the controller is not built yet\n');
process.exitCode = 1;
