module github.com/kingrook/kingrook

go 1.26
