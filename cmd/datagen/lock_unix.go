//go:build unix

package main

import (
	"errors"
	"os"
	"syscall"
)

// Advisory locks (flock): a running datagen holds one on the file it
// writes, and the manifest's writers one on its folder while they read and
// replace it. Both go with the process, also when it is killed.

// lockDir takes the folder's lock, waiting for it, and returns its release.
func lockDir(dir string) (func(), error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, err
	}
	return func() { f.Close() }, nil
}

// lockFile takes the lock of the game file f for its writer; held tells
// that another process holds it.
func lockFile(f *os.File) (held bool, err error) {
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return true, nil
	}
	return false, err
}

// fileBusy tells whether a running datagen holds the lock of the file at
// path.
func fileBusy(path string) (bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return true, nil
	}
	return false, err
}
